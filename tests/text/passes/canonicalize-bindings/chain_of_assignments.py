# PASSES: canonicalize-bindings
# CHECKS: a chain of trivial var-to-var bindings collapses to the original variable (TVM test_simple_assignments)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        y = x
        z = y
        q = z
        p = q
        return p

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        return x
