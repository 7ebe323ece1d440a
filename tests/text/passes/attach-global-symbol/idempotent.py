# PASSES: attach-global-symbol,attach-global-symbol
# CHECKS: running the pass twice changes nothing more
@I.ir_module
class Before:
    @R.function
    def f(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

    @R.function
    def g(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        cls = Before
        y = cls.f(x)
        return y

@I.ir_module
class Expected:
    @R.function
    def f(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

    @R.function
    def g(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        cls = Expected
        y: R.Tensor((2,), dtype="float32") = cls.f(x)
        return y
