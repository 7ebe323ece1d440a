# Callable struct info on parameters, closures and their invocation.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def apply(f: R.Callable((R.Tensor((4,), dtype="float32"),), R.Tensor((4,), dtype="float32"), True), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = f(x)
        return y

    @R.function
    def opaque(g: R.Callable, h: R.Callable(ret=R.Tensor((4,), dtype="float32"), purity=True)) -> R.Object:
        return g

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        y = cls.apply(cls.double, x)
        return y

    @R.function(private=True)
    def double(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        return y
