# split at symbolic indices and strided_slice with symbolic bounds: the pieces' shapes are deduced symbolically.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float16")) -> R.Tuple(R.Tensor(("n", "m // 2"), dtype="float16"), R.Tensor(("n", "m - m // 2"), dtype="float16")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            lv = R.strided_slice(x, (1,), (R.prim_value(m // 2),), (m,), assume_inbound=True)
            gv = R.split(x, indices_or_sections=[m // 2], axis=1)
            R.output(gv)
        return gv
