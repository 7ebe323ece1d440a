# Tuple unpacking of a call result and of a tuple literal.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def pair(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        a = R.exp(x)
        b = R.log(x)
        t = (a, b)
        return t

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        a, b = cls.pair(x)
        c, d = (a, b)
        e = R.add(c, d)
        return e
