# PASSES: canonicalize-bindings
# CHECKS: a dataflow output used only inside its block becomes a DataflowVar and leaves R.output (TVM test_canonicalize_var_to_dataflow_var_if_legal)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            y = R.add(x, x)
            z = R.multiply(y, y)
            R.output(y, z)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            y = R.add(x, x)
            z = R.multiply(y, y)
            R.output(z)
        return z
