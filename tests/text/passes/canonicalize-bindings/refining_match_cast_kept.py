# PASSES: canonicalize-bindings
# CHECKS: a match_cast that defines new symbolic variables is kept; trivial bindings around it are still folded (TVM test_change_shape)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)):
        o = T.int64()
        p = T.int64()
        y = x
        z = R.match_cast(x, R.Tensor((o, p), dtype="float32"))
        w = z
        q = R.add(w, y)
        r = R.add(q, w)
        return r

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)):
        o = T.int64()
        p = T.int64()
        z = R.match_cast(x, R.Tensor((o, p), dtype="float32"))
        q = R.add(z, x)
        r = R.add(q, z)
        return r
