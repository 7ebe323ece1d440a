# PASSES: remove-purity-checking
# CHECKS: pure packed calls inside If branches are rewritten too
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        if c:
            y = R.call_pure_packed("my_lib.double", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
            r = y
        else:
            r = x
        return r

@I.ir_module
class Expected:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        if c:
            y: R.Tensor((4,), dtype="float32") = R.call_packed("my_lib.double", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
            r: R.Tensor((4,), dtype="float32") = y
        else:
            r: R.Tensor((4,), dtype="float32") = x
        return r
