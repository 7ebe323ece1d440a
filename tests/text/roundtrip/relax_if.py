# A Relax If: both branches end by assigning the variable the if defines.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        if cond:
            lv = R.add(x, y)
            z = R.multiply(lv, x)
        else:
            lv1 = R.subtract(x, y)
            z = R.exp(lv1)
        out = R.negative(z)
        return out
