# PASSES: eliminate-common-subexpr
# CHECKS: a match_cast repeating an earlier one (same value, same target struct info) becomes a trivial binding; one with a different target is kept (TVM test_match_cast)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=1)) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor(dtype="float32", ndim=1)):
        k = T.int64()
        a = R.match_cast(x, R.Tensor((4,), dtype="float32"))
        b = R.match_cast(x, R.Tensor((4,), dtype="float32"))
        c = R.match_cast(x, R.Tensor((k,), dtype="float32"))
        gv = (a, b, c)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=1)) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor(dtype="float32", ndim=1)):
        k = T.int64()
        a = R.match_cast(x, R.Tensor((4,), dtype="float32"))
        b = a
        c = R.match_cast(x, R.Tensor((k,), dtype="float32"))
        gv = (a, a, c)
        return gv
