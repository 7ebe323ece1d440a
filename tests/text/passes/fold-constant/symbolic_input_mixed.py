# PASSES: fold-constant
# CHECKS: with a dynamic input, only the constant part folds; the folded constant replaces its uses in the symbolic computation
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            c0 = R.const([1.0, 2.0, 3.0], "float32")
            c1 = R.const([10.0, 20.0, 30.0], "float32")
            bias = R.add(c0, c1)
            gv = R.add(x, bias)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            gv = R.add(x, R.const([11.0, 22.0, 33.0], "float32"))
            R.output(gv)
        return gv
