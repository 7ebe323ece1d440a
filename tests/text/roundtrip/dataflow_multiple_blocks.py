# Several dataflow blocks with plain bindings between them.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        with R.dataflow():
            lv = R.exp(x)
            lv1 = R.add(lv, x)
            a = R.multiply(lv1, lv1)
            b = R.sigmoid(lv)
            R.output(a, b)
        c = R.add(a, b)
        with R.dataflow():
            lv2 = R.matmul(c, c)
            d = R.tanh(lv2)
            R.output(d)
        e = R.subtract(d, c)
        return e
