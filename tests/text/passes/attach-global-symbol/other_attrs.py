# PASSES: attach-global-symbol
# CHECKS: other function attributes are kept alongside the new symbol
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        return x

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        return x
