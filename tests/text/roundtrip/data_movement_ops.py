# Data-movement operators with their attributes in TVM's keyword form, on symbolic shapes.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32"), i: R.Tensor(("k",), dtype="int64"), j: R.Tensor(("n", 4), dtype="int32")) -> R.Tensor(("n + m", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        with R.dataflow():
            lv = R.expand_dims(x, axis=[0, -1])
            lv1 = R.squeeze(lv, axis=[0])
            lv2 = R.squeeze(lv1, axis=None)
            lv3 = R.flatten(x)
            lv4 = R.broadcast_to(x, R.shape([2, n, 4]))
            lv5 = R.concat((x, y), axis=0)
            lv6 = R.concat((i, i), axis=None)
            lv7 = R.split(x, indices_or_sections=2, axis=1)
            lv8 = R.split(x, indices_or_sections=[1, 3], axis=1)
            lv9 = R.take(x, i, axis=0, mode="fast")
            lv10 = R.take(i, i, axis=None, mode="clip")
            lv11 = R.strided_slice(x, (0,), (1,), (n,), (2,), assume_inbound=False)
            lv12 = R.strided_slice(x, (1,), (0,), (2,), assume_inbound=True)
            lv13 = R.gather_elements(x, j, axis=1)
            lv14 = R.scatter_elements(x, j, x, axis=0, reduction="add")
            lv15 = R.repeat(x, repeats=2, axis=None)
            lv16 = R.repeat(x, repeats=3, axis=-1)
            lv17 = R.tile(x, repeats=[2, 1, 3])
            lv18 = R.flip(x, axis=0)
            gv = R.concat((x, y))
            R.output(gv)
        return gv
