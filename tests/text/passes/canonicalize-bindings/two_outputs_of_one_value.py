# PASSES: canonicalize-bindings
# CHECKS: two outputs trivially bound to one dataflow variable become one output used twice (TVM test_canonicalize_multiple_trivial_binding_to_dataflow_var)
@I.ir_module
class Before:
    @R.function
    def main(w: R.Tensor(("n", "m"), dtype="float32")):
        with R.dataflow():
            x = R.add(w, w)
            y = x
            z = x
            R.output(y, z)
        return (y, z)

@I.ir_module
class Expected:
    @R.function
    def main(w: R.Tensor(("n", "m"), dtype="float32")):
        with R.dataflow():
            x = R.add(w, w)
            R.output(x)
        return (x, x)
