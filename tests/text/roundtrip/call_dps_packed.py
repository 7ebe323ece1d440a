# A library call in destination-passing style.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.call_dps_packed("my_lib.rms_norm", (x, w), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.add(lv, x)
            R.output(gv)
        return gv
