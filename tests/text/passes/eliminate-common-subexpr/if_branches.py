# PASSES: eliminate-common-subexpr
# CHECKS: a branch may reuse a value computed before the If, duplicates within a branch merge, but nothing leaks from one branch to the other or out of the If (TVM test_if_conditions)
@I.ir_module
class Before:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        a = R.exp(x)
        if cond:
            b = R.exp(x)
            c = R.negative(x)
            d = R.negative(x)
            r = R.add(b, R.add(c, d))
        else:
            e = R.negative(x)
            r = R.add(e, a)
        f = R.negative(x)
        gv = R.add(r, f)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        a = R.exp(x)
        if cond:
            b = a
            c = R.negative(x)
            d = c
            lv = R.add(c, c)
            r = R.add(a, lv)
        else:
            e = R.negative(x)
            r = R.add(e, a)
        f = R.negative(x)
        gv = R.add(r, f)
        return gv
