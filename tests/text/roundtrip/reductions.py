# Reductions with axis and keepdims; softmax written out by hand.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def softmax(x: R.Tensor(("n", 16), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.max(x, axis=[1], keepdims=True)
            lv1 = R.subtract(x, lv)
            lv2 = R.exp(lv1)
            lv3 = R.sum(lv2, axis=[-1], keepdims=True)
            gv = R.divide(lv2, lv3)
            R.output(gv)
        return gv

    @R.function
    def stats(x: R.Tensor((4, 5, 6), dtype="float32")) -> R.Tuple(R.Tensor((), dtype="float32"), R.Tensor((5,), dtype="float32")):
        total = R.sum(x)
        avg = R.mean(x, axis=[0, 2])
        lo = R.min(x, axis=1, keepdims=False)
        hi = R.prod(lo, None, False)
        gv = (total, avg)
        return gv
