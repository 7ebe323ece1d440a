# PASSES: canonicalize-bindings
# CHECKS: trivial bindings of a parameter inside a dataflow block all disappear, and the emptied block with them (TVM test_assign_to_output_in_dataflow_block)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            y = x
            z = y
            o = z
            n = o
            R.output(n)
        return n

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")):
        return x
