# PASSES: normalize
# CHECKS: adjacent dataflow blocks merge into one, outputs of the first staying outputs (TVM test_normalize_combine_nearby_blocks)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv0 = R.multiply(lv0, lv0)
            R.output(gv0)
        with R.dataflow():
            lv1 = R.nn.relu(gv0)
            gv1 = R.add(lv1, gv0)
            R.output(gv1)
        return gv1

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv0 = R.multiply(lv0, lv0)
            lv1 = R.nn.relu(gv0)
            gv1 = R.add(lv1, gv0)
            R.output(gv0, gv1)
        return gv1
