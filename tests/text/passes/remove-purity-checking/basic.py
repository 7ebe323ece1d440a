# PASSES: remove-purity-checking
# CHECKS: a pure function gets relax.force_pure = True (TVM test_remove_purity_checking)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        return y
