# Constants: scalars and nested lists of several dtypes.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32")) -> R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((3,), dtype="int64"), R.Tensor((), dtype="bool")):
        c0 = R.const(1.5, "float32")
        c1 = R.const([[1.0, 2.0], [3.0, 4.5]], "float32")
        lv = R.add(x, c0)
        lv1 = R.multiply(lv, c1)
        c2 = R.const([1, -2, 3], "int64")
        c3 = R.const(True, "bool")
        c4 = R.const([0.5, 0.25], "float16")
        c5 = R.const(7)
        gv = (lv1, c2, c3)
        return gv
