# PASSES: fuse-ops-by-pattern
# CHECKS: a block without a matmul followed by an add, and a matmul + add outside any dataflow block, are left as they are
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.add(x, x)
            lv1 = R.matmul(lv0, w)
            R.output(lv1)
        lv2 = R.matmul(lv1, w)
        gv = R.add(lv2, x)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.add(x, x)
            lv1 = R.matmul(lv0, w)
            R.output(lv1)
        lv2 = R.matmul(lv1, w)
        gv = R.add(lv2, x)
        return gv
