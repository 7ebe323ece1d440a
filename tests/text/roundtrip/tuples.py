# Tuples: construction, indexing, tuple-typed parameters and returns.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="int32")),
        x: R.Tensor((4,), dtype="float32"),
    ) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="int32"))):
        a = t[0]
        b = t[1]
        c = R.add(a, x)
        pair = (c, b)
        nested = (c, pair)
        first = nested[1]
        second = first[0]
        result = (second, t)
        return result
