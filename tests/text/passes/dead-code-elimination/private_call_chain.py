# PASSES: dead-code-elimination
# CHECKS: private functions reachable through a chain of calls are kept; a private function that only calls reachable ones is removed
@I.ir_module
class Before:
    @R.function(private=True)
    def leaf(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.nn.relu(x)
        return y

    @R.function(private=True)
    def middle(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Before
        y = cls.leaf(x)
        return y

    @R.function(private=True)
    def orphan(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Before
        y = cls.leaf(x)
        return y

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Before
        y = cls.middle(x)
        return y

@I.ir_module
class Expected:
    @R.function(private=True)
    def leaf(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.nn.relu(x)
        return y

    @R.function(private=True)
    def middle(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Expected
        y = cls.leaf(x)
        return y

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Expected
        y = cls.middle(x)
        return y
