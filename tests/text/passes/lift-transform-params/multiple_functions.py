# PASSES: lift-transform-params
# CHECKS: every function with num_input gets its own transform function; a weight used both directly and transformed is passed through and transformed (TVM test_multiple_functions, test_share_transformed_params)
@I.ir_module
class Before:
    @R.function
    def func1(x: R.Tensor(("n", 8), dtype="float32"), w1: R.Tensor((8, 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            w1_t = R.permute_dims(w1, axes=[1, 0])
            y = R.matmul(x, w1_t)
            z = R.matmul(y, w1)
            R.output(z)
        return z

    @R.function
    def func2(x: R.Tensor((2, 8), dtype="float32"), w1: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            w1_neg = R.negative(w1)
            y = R.matmul(x, w1_neg)
            R.output(y)
        return y

@I.ir_module
class Expected:
    @R.function
    def func1(x: R.Tensor(("n", 8), dtype="float32"), w1: R.Tensor((8, 8), dtype="float32"), w1_t: R.Tensor((8, 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            y = R.matmul(x, w1_t)
            z = R.matmul(y, w1)
            R.output(z)
        return z

    @R.function
    def func1_transform_params(params: R.Tuple(R.Tensor((8, 8), dtype="float32"))) -> R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((8, 8), dtype="float32")):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            lv = params[0]
            w1_t = R.permute_dims(lv, axes=[1, 0])
            gv = (lv, w1_t)
            R.output(gv)
        return gv

    @R.function
    def func2(x: R.Tensor((2, 8), dtype="float32"), w1_neg: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            y = R.matmul(x, w1_neg)
            R.output(y)
        return y

    @R.function
    def func2_transform_params(params: R.Tuple(R.Tensor((8, 8), dtype="float32"))) -> R.Tuple(R.Tensor((8, 8), dtype="float32")):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            lv = params[0]
            w1_neg = R.negative(lv)
            gv = (w1_neg,)
            R.output(gv)
        return gv
