# PASSES: canonicalize-bindings
# CHECKS: a chain of trivial bindings inside a dataflow block ending in an output keeps one binding, of the output (TVM test_dataflow_block)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32")):
        with R.dataflow():
            y = R.multiply(x, x)
            z = y
            o = z
            p = o
            n = p
            R.output(n)
        return n

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32")):
        with R.dataflow():
            n = R.multiply(x, x)
            R.output(n)
        return n
