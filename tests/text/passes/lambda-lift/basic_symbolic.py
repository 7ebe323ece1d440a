# PASSES: lambda-lift
# CHECKS: a local function without captures becomes a private module function "<outer>_<local>" called directly; its symbolic shapes are its own (TVM test_basic, test_symbolic_variable_defined_by_inner_func)
@I.ir_module
class Before:
    @R.function
    def main(x1: R.Tensor(("n", 5), dtype="float32"), y1: R.Tensor(("n", 5), dtype="float32")) -> R.Tensor(("n", 5), dtype="float32"):
        @R.function
        def inner(x2: R.Tensor(("m", 5), dtype="float32"), y2: R.Tensor(("m", 5), dtype="float32")) -> R.Tensor(("m", 5), dtype="float32"):
            s = R.add(x2, y2)
            return s

        gv1 = inner(x1, y1)
        return gv1

@I.ir_module
class Expected:
    @R.function(private=True)
    def main_inner(x2: R.Tensor(("m", 5), dtype="float32"), y2: R.Tensor(("m", 5), dtype="float32")) -> R.Tensor(("m", 5), dtype="float32"):
        s = R.add(x2, y2)
        return s

    @R.function
    def main(x1: R.Tensor(("n", 5), dtype="float32"), y1: R.Tensor(("n", 5), dtype="float32")) -> R.Tensor(("n", 5), dtype="float32"):
        cls = Expected
        gv1 = cls.main_inner(x1, y1)
        return gv1
