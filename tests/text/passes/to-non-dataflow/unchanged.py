# PASSES: to-non-dataflow
# CHECKS: a function without dataflow blocks is unchanged
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        y = R.add(x, x)
        z = R.multiply(y, y)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        y: R.Tensor((n, 4), dtype="float32") = R.add(x, x)
        z: R.Tensor((n, 4), dtype="float32") = R.multiply(y, y)
        return z
