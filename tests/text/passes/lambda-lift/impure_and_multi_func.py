# PASSES: lambda-lift
# CHECKS: an impure local function stays impure when lifted; local functions of two module functions get distinct names (TVM test_impure_function, test_multi_func)
@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((), dtype="int32")) -> R.Tensor((), dtype="int32"):
        @R.function(pure=False)
        def inner() -> R.Tuple:
            y = R.print(format="Wow!")
            return y

        gv1 = inner()
        return x

    @R.function
    def other(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        @R.function
        def inner(z: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
            w = R.negative(z)
            return w

        gv = inner(x)
        return gv

@I.ir_module
class Expected:
    @R.function(pure=False, private=True)
    def main_inner() -> R.Tuple:
        y = R.print(format="Wow!")
        return y

    @R.function(pure=False)
    def main(x: R.Tensor((), dtype="int32")) -> R.Tensor((), dtype="int32"):
        cls = Expected
        gv1 = cls.main_inner()
        return x

    @R.function(private=True)
    def other_inner(z: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        w = R.negative(z)
        return w

    @R.function
    def other(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        cls = Expected
        gv = cls.other_inner(x)
        return gv
