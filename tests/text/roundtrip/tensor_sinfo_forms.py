# Every spelling of tensor and shape struct info.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((2, 3), "float32"),
        b: R.Tensor("float32", ndim=2),
        c: R.Tensor(ndim=3),
        d: R.Tensor,
        e: R.Tensor((), "int32"),
        s: R.Shape,
        t: R.Shape(ndim=3),
        u: R.Tuple,
    ) -> R.Tensor(dtype="float32", ndim=2):
        x: R.Tensor(dtype="float32", ndim=2) = R.add(a, b)
        y: R.Tensor = c
        z: R.Tensor(ndim=-1) = d
        return x
