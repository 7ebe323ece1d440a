# A data-dependent result re-enters the symbolic world through match_cast.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            lv = R.call_pure_packed("vm.builtin.unique", x, sinfo_args=(R.Tensor(dtype="float32", ndim=1),))
            lv1 = R.match_cast(lv, R.Tensor((m,), dtype="float32"))
            gv = R.exp(lv1)
            R.output(gv)
        return gv
