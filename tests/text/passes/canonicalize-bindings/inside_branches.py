# PASSES: canonicalize-bindings
# CHECKS: bindings inside If branches are canonicalized too, each branch on its own (TVM test_canonicalize_inside_branches)
@I.ir_module
class Before:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            z = R.add(x, y)
            R.output(z)
        if cond:
            with R.dataflow():
                w = R.add(z, z)
                v = R.multiply(w, w)
                R.output(w, v)
            q = v
        else:
            with R.dataflow():
                w = R.multiply(z, z)
                v = R.add(w, w)
                R.output(w, v)
            q = v
        return q

@I.ir_module
class Expected:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            z = R.add(x, y)
            R.output(z)
        if cond:
            with R.dataflow():
                w = R.add(z, z)
                v = R.multiply(w, w)
                R.output(v)
            q = v
        else:
            with R.dataflow():
                w = R.multiply(z, z)
                v = R.add(w, w)
                R.output(v)
            q = v
        return q
