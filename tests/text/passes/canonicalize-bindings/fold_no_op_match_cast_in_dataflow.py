# PASSES: canonicalize-bindings
# CHECKS: a no-op match_cast that defines a dataflow output is folded into the output's binding (TVM test_fold_match_cast)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("k", 4), dtype="float32")) -> R.Tensor(("k", 4), dtype="float32"):
        k = T.int64()
        with R.dataflow():
            y = R.add(x, x)
            n = R.match_cast(y, R.Tensor((k, 4), dtype="float32"))
            R.output(n)
        return n

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("k", 4), dtype="float32")) -> R.Tensor(("k", 4), dtype="float32"):
        with R.dataflow():
            n = R.add(x, x)
            R.output(n)
        return n
