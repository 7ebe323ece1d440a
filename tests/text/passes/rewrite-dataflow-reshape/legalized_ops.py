# PASSES: legalize-ops,rewrite-dataflow-reshape,dead-code-elimination
# CHECKS: R.reshape / R.flatten / R.squeeze / R.expand_dims, legalized to call_tir, come back as R.reshape (static and symbolic shapes), so the copy PrimFuncs become unused
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 1, 3), dtype="float32"), y: R.Tensor(("n", 1, "m"), dtype="float16")) -> R.Tuple(R.Tensor((6,), dtype="float32"), R.Tensor((3, 2), dtype="float32"), R.Tensor(("n", 1, 1, "m"), dtype="float16"), R.Tensor(("n * m",), dtype="float16")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            a = R.flatten(x)
            b = R.reshape(x, R.shape([3, 2]))
            c = R.expand_dims(y, axis=[1])
            d = R.squeeze(y, axis=[1])
            e = R.flatten(d)
            R.output(a, b, c, e)
        return (a, b, c, e)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 1, 3), dtype="float32"), y: R.Tensor(("n", 1, "m"), dtype="float16")) -> R.Tuple(R.Tensor((6,), dtype="float32"), R.Tensor((3, 2), dtype="float32"), R.Tensor(("n", 1, 1, "m"), dtype="float16"), R.Tensor(("n * m",), dtype="float16")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            a = R.reshape(x, R.shape([6]))
            b = R.reshape(x, R.shape([3, 2]))
            c = R.reshape(y, R.shape([n, 1, 1, m]))
            d = R.reshape(y, R.shape([n, m]))
            e = R.reshape(d, R.shape([m * n]))
            R.output(a, b, c, e)
        return (a, b, c, e)
