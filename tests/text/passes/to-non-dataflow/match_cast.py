# PASSES: to-non-dataflow
# CHECKS: a match_cast of a DataflowVar binds a Var and defines its symbolic variables outside dataflow
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            lv0 = R.match_cast(x, R.Tensor((n, m), dtype="float32"))
            lv1 = R.add(lv0, lv0)
            gv = R.multiply(lv1, lv0)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        n = T.int64()
        m = T.int64()
        lv0: R.Tensor((n, m), dtype="float32") = R.match_cast(x, R.Tensor((n, m), dtype="float32"))
        lv1: R.Tensor((n, m), dtype="float32") = R.add(lv0, lv0)
        gv: R.Tensor((n, m), dtype="float32") = R.multiply(lv1, lv0)
        return gv
