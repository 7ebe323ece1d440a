# PASSES: canonicalize-bindings
# CHECKS: an output used only by a later dataflow block stays an output; the outputs nothing else uses become DataflowVars (TVM test_var_used_in_distinct_df_blocks)
@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            z = R.add(x, y)
            w = R.multiply(z, y)
            v = R.add(w, x)
            R.output(v)
        _ = R.call_packed("my_lib.log", x, sinfo_args=(R.Object,))
        with R.dataflow():
            a = R.multiply(v, v)
            b = R.add(a, a)
            c = R.subtract(b, a)
            d = R.add(c, c)
            R.output(a, d)
        return d

@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            z = R.add(x, y)
            w = R.multiply(z, y)
            v = R.add(w, x)
            R.output(v)
        _ = R.call_packed("my_lib.log", x, sinfo_args=(R.Object,))
        with R.dataflow():
            a = R.multiply(v, v)
            b = R.add(a, a)
            c = R.subtract(b, a)
            d = R.add(c, c)
            R.output(d)
        return d
