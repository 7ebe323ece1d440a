# Binary and comparison operators with an R.Prim operand (a scalar broadcast
# against the tensor), written with Python operators and with R.* calls.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor(("n", 4), dtype="float32"), scale: R.Prim("float32")) -> R.Tensor(("n", 4), dtype="bool"):
        n = T.int64()
        with R.dataflow():
            b = A * scale
            c = R.add(b, R.prim_value(T.float32(2)))
            d = R.subtract(scale, c)
            e = R.greater(d, scale)
            R.output(e)
        return e

    @R.function
    def scalars(a: R.Prim("int64"), b: R.Prim("int64")) -> R.Prim("int64"):
        c = R.maximum(a, b)
        return c
