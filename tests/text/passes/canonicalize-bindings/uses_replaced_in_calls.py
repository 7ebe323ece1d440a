# PASSES: canonicalize-bindings
# CHECKS: uses of trivially bound variables inside calls are replaced by the originals (TVM test_ops)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("n", "m"), dtype="float32")):
        w = y
        q = x
        z = R.add(w, q)
        r = R.add(q, z)
        return r

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("n", "m"), dtype="float32")):
        z = R.add(y, x)
        r = R.add(x, z)
        return r
