# PASSES: dead-code-elimination
# CHECKS: a dataflow block whose outputs are never used disappears, unused dataflow outputs included (TVM test_unused_dfb)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        with R.dataflow():
            lv0 = R.add(x, x)
            lv1 = R.multiply(lv0, lv0)
            gv0 = R.nn.relu(lv0)
            R.output(gv0)
        gv1 = R.astype(gv0, dtype="float16")
        with R.dataflow():
            lv2 = R.permute_dims(gv1, axes=[1, 0])
            gv2 = R.add(lv2, lv2)
            R.output(gv2)
        return gv1

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv0 = R.nn.relu(lv0)
            R.output(gv0)
        gv1 = R.astype(gv0, dtype="float16")
        return gv1
