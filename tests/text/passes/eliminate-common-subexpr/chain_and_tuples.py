# PASSES: eliminate-common-subexpr
# CHECKS: replacements carry over, so a chain of duplicates collapses; duplicate tuples and shapes merge too (TVM test_repeated_inner_tuples)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        with R.dataflow():
            a0 = R.exp(x)
            a1 = R.exp(x)
            b0 = R.add(a0, x)
            b1 = R.add(a1, x)
            t0 = (b0, b1)
            t1 = (b0, b1)
            c = t0[0]
            d = t1[1]
            gv = R.add(c, d)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        with R.dataflow():
            a0 = R.exp(x)
            a1 = a0
            b0 = R.add(a0, x)
            b1 = b0
            t0 = (b0, b0)
            t1 = t0
            c = t0[0]
            d = t0[1]
            gv = R.add(c, d)
            R.output(gv)
        return gv
