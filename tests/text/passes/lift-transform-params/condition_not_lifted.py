# PASSES: lift-transform-params
# CHECKS: bindings outside dataflow blocks (an If on a weight) are not lifted; the weights pass through the transform function (TVM test_condition)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 16), dtype="float32"), w1: R.Tensor((16, 16), dtype="float32"), w2: R.Tensor((16, 16), dtype="float32"), cond: R.Tensor((), dtype="bool")) -> R.Tensor((1, 16), dtype="float32"):
        R.func_attr({"num_input": 1})
        if cond:
            w = w1
        else:
            w = w2
        with R.dataflow():
            y = R.matmul(x, w)
            R.output(y)
        return y

@I.ir_module
class Expected:
    @R.function
    def main_transform_params(params: R.Tuple(R.Tensor((16, 16), dtype="float32"), R.Tensor((16, 16), dtype="float32"), R.Tensor((), dtype="bool"))) -> R.Tuple(R.Tensor((16, 16), dtype="float32"), R.Tensor((16, 16), dtype="float32"), R.Tensor((), dtype="bool")):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            lv = params[0]
            lv1 = params[1]
            lv2 = params[2]
            gv = (lv, lv1, lv2)
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((1, 16), dtype="float32"), param0: R.Tensor((16, 16), dtype="float32"), param1: R.Tensor((16, 16), dtype="float32"), param2: R.Tensor((), dtype="bool")) -> R.Tensor((1, 16), dtype="float32"):
        R.func_attr({"num_input": 1})
        if param2:
            w = param0
        else:
            w = param1
        with R.dataflow():
            y = R.matmul(x, w)
            R.output(y)
        return y
