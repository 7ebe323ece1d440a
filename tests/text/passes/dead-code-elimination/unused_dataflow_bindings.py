# PASSES: dead-code-elimination
# CHECKS: unused bindings in a dataflow block are removed, and so are the bindings only they used (TVM test_simple)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            wt = R.permute_dims(w, axes=[1, 0])
            gv = R.matmul(x, wt)
            lv0 = R.permute_dims(gv, axes=[1, 0])
            lv1 = R.add(lv0, lv0)
            lv2 = R.multiply(lv1, lv1)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            wt = R.permute_dims(w, axes=[1, 0])
            gv = R.matmul(x, wt)
            R.output(gv)
        return gv
