# variance, std, argmax, argmin, cumsum and einsum.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4, "m"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        lv = R.variance(x, axis=[1], keepdims=True)
        lv1 = R.std(x, axis=None, keepdims=False)
        lv2 = R.argmax(x, axis=1, keepdims=False)
        lv3 = R.argmin(x, axis=None, keepdims=True)
        lv4 = R.cumsum(x, axis=0, dtype="void", exclusive=False)
        lv5 = R.cumsum(x, axis=None, dtype="float64", exclusive=True)
        lv6 = R.einsum((x, y), subscripts="ij,jk->ik")
        gv = (lv, lv1, lv2, lv3, lv4, lv5, lv6)
        return gv
