# PASSES: remove-purity-checking
# CHECKS: R.call_pure_packed becomes a plain packed call with the same struct info
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.call_pure_packed("my_lib.double", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((4,), dtype="float32") = R.call_packed("my_lib.double", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y
