# Pure packed calls with explicit result struct info.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tuple(R.Tensor((8,), dtype="float32"), R.Shape([8])):
        with R.dataflow():
            lv = R.call_pure_packed("my_lib.softplus", x, sinfo_args=(R.Tensor((8,), dtype="float32"),))
            lv1 = R.call_pure_packed("my_lib.shape_of", lv, sinfo_args=(R.Shape([8]),))
            gv = (lv, lv1)
            R.output(gv)
        return gv
