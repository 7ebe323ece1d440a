# PASSES: eliminate-common-subexpr
# CHECKS: a DataflowVar stops being a candidate when its block ends; a dataflow output (a Var) stays one
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            lv = R.add(x, y)
            out = R.multiply(lv, y)
            R.output(out)
        mid = R.exp(out)
        with R.dataflow():
            lv2 = R.add(x, y)
            out2 = R.multiply(lv2, y)
            gv = R.subtract(out2, mid)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            lv = R.add(x, y)
            out = R.multiply(lv, y)
            R.output(out)
        mid = R.exp(out)
        with R.dataflow():
            lv2 = R.add(x, y)
            out2 = R.multiply(lv2, y)
            gv = R.subtract(out2, mid)
            R.output(gv)
        return gv
