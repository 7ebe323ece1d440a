# PASSES: eliminate-common-subexpr
# CHECKS: calls that differ only in which variables they use, or in argument order, are not merged (free variables compare by identity)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32"), z: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            a = R.subtract(x, y)
            b = R.subtract(y, x)
            c = R.subtract(x, z)
            gv = (a, b, c)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32"), z: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            a = R.subtract(x, y)
            b = R.subtract(y, x)
            c = R.subtract(x, z)
            gv = (a, b, c)
            R.output(gv)
        return gv
