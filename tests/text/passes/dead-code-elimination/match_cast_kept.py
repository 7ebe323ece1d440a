# PASSES: dead-code-elimination
# CHECKS: an unused match_cast is kept (it is a run-time check), and so is the value it checks
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor(dtype="float32", ndim=1):
        m = T.int64()
        with R.dataflow():
            lv0 = R.add(x, x)
            lv1 = R.match_cast(lv0, R.Tensor((m,), dtype="float32"))
            lv2 = R.multiply(lv0, lv0)
            gv = R.nn.relu(x)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor(dtype="float32", ndim=1):
        m = T.int64()
        with R.dataflow():
            lv0 = R.add(x, x)
            lv1 = R.match_cast(lv0, R.Tensor((m,), dtype="float32"))
            gv = R.nn.relu(x)
            R.output(gv)
        return gv
