# ERROR: 9:5: the function returns a value of Tensor((2, 3), float32) but is annotated to return Tuple()
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((2, 3), "float32")) -> None:
        y = R.multiply(x, x)
        return y
