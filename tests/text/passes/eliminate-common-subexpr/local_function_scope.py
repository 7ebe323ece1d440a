# PASSES: eliminate-common-subexpr
# CHECKS: a local function is a scope of its own: its body does not reuse values of the enclosing function, but merges its own duplicates (TVM test_inner_function)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        a = R.exp(x)

        @R.function
        def inner(y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
            b = R.exp(y)
            c = R.exp(y)
            d = R.add(b, c)
            return d

        e = inner(a)
        return e

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        a = R.exp(x)

        @R.function
        def inner(y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
            b = R.exp(y)
            c = b
            d = R.add(b, b)
            return d

        e = inner(a)
        return e
