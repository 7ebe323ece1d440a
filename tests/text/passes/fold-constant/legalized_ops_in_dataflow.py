# PASSES: fold-constant
# CHECKS: operators on constants inside a dataflow block are legalized on the fly and folded; no PrimFunc is left in the module (TVM test_fold_multiple_relax_ops)
@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            c0 = R.const([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")
            c1 = R.const([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], "float32")
            lv0 = R.add(c0, c1)
            lv1 = R.multiply(lv0, c1)
            gv = R.subtract(lv1, c0)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tensor((2, 3), dtype="float32"):
        return R.const([[1.0, 1.0, 1.0], [8.0, 9.0, 10.0]], "float32")
