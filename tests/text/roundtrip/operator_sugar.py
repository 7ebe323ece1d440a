# Python operators on graph values are elementwise operators.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="bool")):
        a = x + y
        b = a * x - y / x
        c = -b
        d = a // y + a % y
        e = x < y
        f = R.maximum(c, d)
        g = R.power(f, x)
        out = (g, e)
        return out
