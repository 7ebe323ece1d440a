# PASSES: remove-purity-checking
# CHECKS: a function already marked force_pure keeps its attributes
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        y = R.add(x, x)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        return y
