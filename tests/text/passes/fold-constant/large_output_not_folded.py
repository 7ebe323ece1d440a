# PASSES: fold-constant
# CHECKS: a small R.zeros folds; a large one from no constant input (it would grow the module) is left alone
@I.ir_module
class Before:
    @R.function
    def main() -> R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((512, 512), dtype="float32")):
        with R.dataflow():
            small = R.zeros(R.shape([2, 2]), dtype="float32")
            large = R.zeros(R.shape([512, 512]), dtype="float32")
            gv = (small, large)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((512, 512), dtype="float32")):
        with R.dataflow():
            large = R.zeros(R.shape([512, 512]), dtype="float32")
            gv = (R.const([[0.0, 0.0], [0.0, 0.0]], "float32"), large)
            R.output(gv)
        return gv
