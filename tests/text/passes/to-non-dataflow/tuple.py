# PASSES: to-non-dataflow
# CHECKS: tuple values and tuple indexing in a dataflow block, two outputs
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            t = (x, y)
            a = t[0]
            gv0 = R.add(a, y)
            gv1 = R.multiply(t[1], gv0)
            R.output(gv0, gv1)
        return (gv0, gv1)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (x, y)
        a: R.Tensor((4,), dtype="float32") = t[0]
        gv0: R.Tensor((4,), dtype="float32") = R.add(a, y)
        lv: R.Tensor((4,), dtype="float32") = t[1]
        gv1: R.Tensor((4,), dtype="float32") = R.multiply(lv, gv0)
        return (gv0, gv1)
