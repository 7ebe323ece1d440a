# layout_transform with TVM's index_map lambda form, padding (14 -> 4 x 4), a pad value, and a lambda parameter renamed past an outer symbolic name.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 14), dtype="float32"), y: R.Tensor((16,), dtype="float32")) -> R.Tensor((4, "n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.layout_transform(y, index_map=T.index_map(lambda n: (n // 4, n % 4)), pad_value=None, axis_separators=[])
            lv1 = R.layout_transform(x, index_map=T.index_map(lambda a, b: (b, a)))
            gv = R.layout_transform(x, index_map=T.index_map(lambda i, j: (j // 4, i, j % 4)), pad_value=R.prim_value(T.float32(2)), axis_separators=[])
            R.output(gv)
        return gv
