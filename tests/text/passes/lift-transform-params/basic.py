# PASSES: lift-transform-params
# CHECKS: a transpose of a weight moves into main_transform_params; main takes the still-used weight and the transposed one after its inputs (TVM test_basic, test_multiple_functions), dynamic batch
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32"), w1: R.Tensor((8, 16), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            w1_t = R.permute_dims(w1, axes=[1, 0])
            y = R.matmul(x, w1_t)
            z = R.add(y, b)
            R.output(z)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32"), b: R.Tensor((8,), dtype="float32"), w1_t: R.Tensor((16, 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            y = R.matmul(x, w1_t)
            z = R.add(y, b)
            R.output(z)
        return z

    @R.function
    def main_transform_params(params: R.Tuple(R.Tensor((8, 16), dtype="float32"), R.Tensor((8,), dtype="float32"))) -> R.Tuple(R.Tensor((8,), dtype="float32"), R.Tensor((16, 8), dtype="float32")):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            lv = params[0]
            lv1 = params[1]
            w1_t = R.permute_dims(lv, axes=[1, 0])
            gv = (lv1, w1_t)
            R.output(gv)
        return gv
