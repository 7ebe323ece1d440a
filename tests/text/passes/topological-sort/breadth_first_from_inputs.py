# PASSES: topological-sort{order=breadth-first direction=from-inputs}
# CHECKS: breadth-first from the inputs: bindings by distance from the parameters (TVM test_breadth_first_from_inputs)
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
            B1 = R.add(A, R.const(1, "float32"))
            B2 = R.add(A, R.const(2, "float32"))
            C1 = R.add(A, B1)
            C2 = R.add(A, B2)
            D = R.add(C1, C2)
            R.output(D)
        return D

