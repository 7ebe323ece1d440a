# PASSES: canonicalize-bindings
# CHECKS: `out = lv` for a dataflow output renames lv's binding to out, so the output stays a Var (TVM test_canonicalize_trivial_binding_to_dataflow_var)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            y = R.add(x, x)
            z = y
            R.output(z)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            y = R.add(x, x)
            R.output(y)
        return y
