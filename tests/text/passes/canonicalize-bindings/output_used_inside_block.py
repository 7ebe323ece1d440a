# PASSES: canonicalize-bindings
# CHECKS: when `gv1 = lv1` renames lv1's binding, later uses of lv1 in the block use gv1 (TVM test_update_dataflow_computations_if_var_replacement_occurs)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")):
        with R.dataflow():
            lv1 = R.add(x, x)
            gv1 = lv1
            gv2 = R.multiply(lv1, x)
            R.output(gv1, gv2)
        return (gv1, gv2)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")):
        with R.dataflow():
            gv1 = R.add(x, x)
            gv2 = R.multiply(gv1, x)
            R.output(gv1, gv2)
        return (gv1, gv2)
