# Shape and Prim struct info: parameters, shape_of, prim values, R.shape.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), s: R.Shape(["n", "m"]), kv: R.Prim(value="k"), p: R.Prim("float32")) -> R.Shape(["n", "m"]):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        sh = R.shape_of(x)
        v = R.prim_value(n * m + k)
        w = R.prim_value(T.int32(1))
        t = R.shape([n, m])
        u: R.Shape(ndim=2) = t
        return sh
