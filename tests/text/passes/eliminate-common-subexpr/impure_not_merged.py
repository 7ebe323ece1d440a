# PASSES: eliminate-common-subexpr
# CHECKS: impure calls are never merged; pure duplicates merge across binding blocks (TVM test_do_not_eliminate_impure)
@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        p0 = R.print(x, format="{}")
        p1 = R.print(x, format="{}")
        a = R.exp(x)
        with R.dataflow():
            b = R.exp(x)
            gv = R.add(a, b)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        p0 = R.print(x, format="{}")
        p1 = R.print(x, format="{}")
        a = R.exp(x)
        with R.dataflow():
            b = a
            gv = R.add(a, a)
            R.output(gv)
        return gv
