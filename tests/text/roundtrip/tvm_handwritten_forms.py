# Spellings found in TVM's hand-written tests (not its printed form): a single
# tensor as call arguments, positional out_sinfo, R.TupleGetItem,
# `n, m = T.int64(), T.int64()`, R.Tensor(None, ...), R.Shape((4, 4)).
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor("float32", ndim=2), s: R.Shape((4, 4))) -> R.Tensor(None, "float32", ndim=2):
        n, m = T.int64(), T.int64()
        x0 = R.match_cast(x, R.Tensor((n, m), "float32"))
        gv0 = R.call_dps_packed("extern_func", x0, R.Tensor((n, m), dtype="float32"))
        t = (gv0, x0)
        first = R.TupleGetItem(t, 0)
        return first
