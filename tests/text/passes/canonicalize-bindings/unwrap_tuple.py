# PASSES: canonicalize-bindings
# CHECKS: indexing a variable bound to a tuple literal is replaced by the field (TVM test_unwrap_tuple)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")):
        t = (x, y)
        a = t[0]
        b = t[1]
        z = R.add(a, b)
        r = R.add(b, z)
        return r

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")):
        t = (x, y)
        z = R.add(x, y)
        r = R.add(y, z)
        return r
