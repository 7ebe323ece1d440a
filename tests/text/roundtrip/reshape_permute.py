# Shape manipulation: reshape to a symbolic shape, permute_dims with axes.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("b", "s", 64), dtype="float32")) -> R.Tensor(("s", "b", 8, 8), dtype="float32"):
        b = T.int64()
        s = T.int64()
        with R.dataflow():
            lv = R.reshape(x, R.shape([b, s, 8, 8]))
            lv1 = R.permute_dims(lv, axes=[1, 0, 2, 3])
            lv2 = R.permute_dims(lv1, axes=None)
            gv = R.permute_dims(lv2)
            R.output(gv)
        return gv
