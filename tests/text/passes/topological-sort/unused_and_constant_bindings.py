# PASSES: topological-sort
# CHECKS: a binding that uses no variable hangs off the inputs and an unused binding leads to the outputs, so both are still emitted (TVM test_depth_first_with_unused_bindings)
@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            c = R.zeros(R.shape([4]), dtype="float32")
            B = R.add(A, A)
            u = R.exp(A)
            gv = (B, c)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            B = R.add(A, A)
            u = R.exp(A)
            c = R.zeros(R.shape([4]), dtype="float32")
            gv = (B, c)
            R.output(gv)
        return gv
