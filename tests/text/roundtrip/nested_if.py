# Nested ifs (elif) and an if on a Prim condition.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(c1: R.Prim("bool"), c2: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        if c1:
            y = R.exp(x)
        elif c2:
            y = R.sqrt(x)
        else:
            y: R.Tensor((4,), dtype="float32") = x
        z = R.add(y, x)
        return z
