# Opaque objects, strings and null values.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(obj: R.Object, x: R.Tensor(dtype="float32")) -> R.Tuple(R.Object, R.Object, R.Object):
        s = R.str("hello")
        nothing = R.null_value()
        y: R.Object = x
        gv = (obj, s, nothing)
        return gv
