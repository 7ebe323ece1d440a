# Type conversion and clipping with prim-value bounds.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="float16"):
        with R.dataflow():
            lv = R.clip(x, R.prim_value(T.float32(0)), R.prim_value(T.float32(6)))
            lv1 = R.astype(lv, dtype="float16")
            lv2 = R.matmul(x, R.const([[1.0], [1.0], [1.0], [1.0], [1.0], [1.0], [1.0], [1.0]], "float32"), out_dtype="float32")
            gv = R.astype(lv1, "float16")
            R.output(gv)
        return gv
