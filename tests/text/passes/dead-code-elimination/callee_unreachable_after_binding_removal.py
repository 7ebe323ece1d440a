# PASSES: dead-code-elimination
# CHECKS: removing a dead call makes its private callee unreachable, so the callee is removed too
@I.ir_module
class Before:
    @R.function(private=True)
    def helper(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.multiply(x, x)
        return y

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Before
        unused = cls.helper(x)
        y = R.add(x, x)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.add(x, x)
        return y
