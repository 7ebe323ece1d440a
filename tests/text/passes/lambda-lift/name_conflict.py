# PASSES: lambda-lift
# CHECKS: a lifted name that the module already uses gets a suffix (TVM test_lambda_function_with_same_name_as_global)
@I.ir_module
class Before:
    @R.function
    def main(x1: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        @R.function
        def inner(x2: R.Tensor(("k",), dtype="float32")) -> R.Tensor(("k",), dtype="float32"):
            s = R.exp(x2)
            return s

        gv1 = inner(x1)
        return gv1

    @R.function
    def main_inner():
        return R.tuple()

@I.ir_module
class Expected:
    @R.function
    def main(x1: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Expected
        gv1 = cls.main_inner_0(x1)
        return gv1

    @R.function(private=True)
    def main_inner_0(x2: R.Tensor(("k",), dtype="float32")) -> R.Tensor(("k",), dtype="float32"):
        s = R.exp(x2)
        return s

    @R.function
    def main_inner():
        return R.tuple()
