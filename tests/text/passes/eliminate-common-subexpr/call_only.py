# PASSES: eliminate-common-subexpr{call-only=true}
# CHECKS: with call_only, duplicate tuples are kept and only duplicate calls merge (TVM test_call_only)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor(("n",), dtype="float32")), R.Tuple(R.Tensor(("n",), dtype="float32")), R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            t0 = (x,)
            t1 = (x,)
            a = R.negative(x)
            b = R.negative(x)
            c = R.add(a, b)
            gv = (t0, t1, c)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor(("n",), dtype="float32")), R.Tuple(R.Tensor(("n",), dtype="float32")), R.Tensor(("n",), dtype="float32")):
        with R.dataflow():
            t0 = (x,)
            t1 = (x,)
            a = R.negative(x)
            b = a
            c = R.add(a, a)
            gv = (t0, t1, c)
            R.output(gv)
        return gv
