# match_cast to shapes, prim values and tensors defines new symbolic variables.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), s: R.Shape(ndim=2), p: R.Prim("int64")) -> R.Tensor(dtype="float32", ndim=2):
        a = T.int64()
        b = T.int64()
        c = T.int64()
        x1 = R.match_cast(x, R.Tensor((a, b), dtype="float32"))
        s1: R.Shape([a, b]) = R.match_cast(s, R.Shape([a, b]))
        p1 = R.match_cast(p, R.Prim(value=c))
        y = R.reshape(x1, R.shape([b, a]))
        z = R.match_cast(y, R.Tensor(("b", "a"), dtype="float32"))
        return z
