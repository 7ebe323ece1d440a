# PASSES: to-non-dataflow
# CHECKS: dataflow blocks before and after an If are flattened, the branches are kept
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.add(x, x)
            gv = R.multiply(lv, x)
            R.output(gv)
        if c:
            y = R.add(gv, gv)
            r = y
        else:
            r = gv
        with R.dataflow():
            lv1 = R.add(r, r)
            gv1 = R.multiply(lv1, r)
            R.output(gv1)
        return gv1

@I.ir_module
class Expected:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        lv: R.Tensor((n,), dtype="float32") = R.add(x, x)
        gv: R.Tensor((n,), dtype="float32") = R.multiply(lv, x)
        if c:
            y: R.Tensor((n,), dtype="float32") = R.add(gv, gv)
            r: R.Tensor((n,), dtype="float32") = y
        else:
            r: R.Tensor((n,), dtype="float32") = gv
        lv1: R.Tensor((n,), dtype="float32") = R.add(r, r)
        gv1: R.Tensor((n,), dtype="float32") = R.multiply(lv1, r)
        return gv1
