# PASSES: canonicalize-bindings
# CHECKS: an output bound to an item of a parameter tuple keeps its binding and replaces its trivial aliases (TVM test_trivial_binding_of_replaced_non_dataflow_var)
@I.ir_module
class Before:
    @R.function
    def main(param_tuple: R.Tuple(R.Tensor(("n",), dtype="float32"))):
        with R.dataflow():
            A = param_tuple[0]
            B = A
            C = R.add(A, B)
            R.output(A, B, C)
        return C

@I.ir_module
class Expected:
    @R.function
    def main(param_tuple: R.Tuple(R.Tensor(("n",), dtype="float32"))):
        with R.dataflow():
            A = param_tuple[0]
            C = R.add(A, A)
            R.output(C)
        return C
