# PASSES: normalize
# CHECKS: an empty dataflow block is dropped
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.add(x, x)
        with R.dataflow():
            R.output()
        z = R.multiply(y, y)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.add(x, x)
        z = R.multiply(y, y)
        return z
