# A nested function (closure) capturing an outer variable.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        @R.function
        def add_x(z: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            w = R.add(z, x)
            return w

        r = add_x(y)
        return r
