# PASSES: to-non-dataflow
# CHECKS: a dataflow block becomes a binding block and its DataflowVars Vars (TVM test_to_non_dataflow)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv0 = R.multiply(lv0, x)
            R.output(gv0)
        return gv0

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        lv0: R.Tensor((2, 3), dtype="float32") = R.add(x, x)
        gv0: R.Tensor((2, 3), dtype="float32") = R.multiply(lv0, x)
        return gv0
