# PASSES: attach-global-symbol
# CHECKS: an existing global_symbol is replaced by the function name, as TVM does
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.func_attr({"global_symbol": "entry"})
        return x

    @R.function
    def other(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

    @R.function
    def other(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x
