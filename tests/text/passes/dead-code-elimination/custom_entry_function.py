# PASSES: dead-code-elimination{entry-functions=compute}
# CHECKS: a private function named as an entry is kept with its callees; other private functions go (TVM test_unused_relax_func_custom_entry_func)
@I.ir_module
class Before:
    @R.function(private=True)
    def square(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.multiply(x, x)
        return y

    @R.function(private=True)
    def unused(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.add(x, x)
        return y

    @R.function(private=True)
    def compute(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Before
        y = cls.square(x)
        return y

@I.ir_module
class Expected:
    @R.function(private=True)
    def square(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.multiply(x, x)
        return y

    @R.function(private=True)
    def compute(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Expected
        y = cls.square(x)
        return y
