# PASSES: vm-builtin-lower
# CHECKS: calls of PrimFuncs, packed functions and graph operators are left alone
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        _ = R.call_packed("my_lib.log", y, sinfo_args=(R.Object,))
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        _: R.Object = R.call_packed("my_lib.log", y, sinfo_args=(R.Object,))
        return y
