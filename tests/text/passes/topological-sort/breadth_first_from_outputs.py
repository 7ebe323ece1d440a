# PASSES: topological-sort{order=breadth-first direction=from-outputs}
# CHECKS: breadth-first from the outputs, reversed: values are defined as late as possible (TVM test_breadth_first_from_outputs)
@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        with R.dataflow():
            B1 = R.add(A, R.const(1, "float32"))
            C1 = R.add(A, B1)
            B2 = R.add(A, R.const(2, "float32"))
            C2 = R.add(A, B2)
            D = R.add(C1, C2)
            R.output(D)
        return D

@I.ir_module
class Expected:
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

