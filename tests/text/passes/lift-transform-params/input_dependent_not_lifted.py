# PASSES: lift-transform-params
# CHECKS: a binding that uses a run-time input stays even if it also uses weights, and values derived from it stay too; only the weight-only prefix is lifted
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            b2 = R.multiply(b, b)
            y = R.matmul(x, w)
            z = R.add(y, b2)
            q = R.exp(z)
            R.output(q)
        return q

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32"), b2: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            y = R.matmul(x, w)
            z = R.add(y, b2)
            q = R.exp(z)
            R.output(q)
        return q

    @R.function
    def main_transform_params(params: R.Tuple(R.Tensor((4, 4), dtype="float32"), R.Tensor((4,), dtype="float32"))) -> R.Tuple(R.Tensor((4, 4), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            lv = params[0]
            lv1 = params[1]
            b2 = R.multiply(lv1, lv1)
            gv = (lv, b2)
            R.output(gv)
        return gv
