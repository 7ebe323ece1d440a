# PASSES: lift-transform-params
# CHECKS: a function without num_input is left alone and gets no transform function (TVM test_multiple_functions, func3)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            w_t = R.permute_dims(w, axes=[1, 0])
            y = R.matmul(x, w_t)
            R.output(y)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            w_t = R.permute_dims(w, axes=[1, 0])
            y = R.matmul(x, w_t)
            R.output(y)
        return y
