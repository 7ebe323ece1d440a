# PASSES: topological-sort
# CHECKS: the defaults are depth-first from the inputs (TVM's TopologicalSort()); users are explored in the order of their uses
@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        with R.dataflow():
            B2 = R.add(A, R.const(2, "float32"))
            B1 = R.add(A, R.const(1, "float32"))
            C2 = R.add(A, B2)
            C1 = R.add(A, B1)
            D = R.add(C1, C2)
            R.output(D)
        return D

@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        with R.dataflow():
            B2 = R.add(A, R.const(2, "float32"))
            C2 = R.add(A, B2)
            B1 = R.add(A, R.const(1, "float32"))
            C1 = R.add(A, B1)
            D = R.add(C1, C2)
            R.output(D)
        return D

