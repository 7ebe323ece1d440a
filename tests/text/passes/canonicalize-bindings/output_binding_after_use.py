# PASSES: canonicalize-bindings
# CHECKS: the renaming also applies to uses that come before the trivial binding (TVM test_update_dataflow_computations_if_var_replacement_occurs_after_usage)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")):
        with R.dataflow():
            lv1 = R.add(x, x)
            gv2 = R.multiply(lv1, x)
            gv1 = lv1
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
