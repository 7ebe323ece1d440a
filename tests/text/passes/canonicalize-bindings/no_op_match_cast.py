# PASSES: canonicalize-bindings
# CHECKS: a match_cast to the struct info the value already has is a trivial binding and is folded (TVM test_same_shape)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32")):
        m = T.int64()
        n = T.int64()
        y = x
        z = R.match_cast(x, R.Tensor((m, n), dtype="float32"))
        w = z
        q = R.add(w, y)
        r = R.add(q, w)
        return r

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32")):
        q = R.add(x, x)
        r = R.add(q, x)
        return r
