# PASSES: canonicalize-bindings
# CHECKS: a local function is canonicalized too, and the variables it captures stay dataflow outputs (TVM test_inner_function)
@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            z = R.add(x, y)
            w = R.multiply(z, z)
            v = R.divide(w, z)
            R.output(z, v, w)

        @R.function(pure=False)
        def inner(p: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
            with R.dataflow():
                q = R.add(p, p)
                r = q
                s = R.multiply(r, q)
                R.output(q, s)
            _ = R.call_packed("my_lib.log", s, sinfo_args=(R.Object,))
            t = s
            return t

        u = inner(w)
        k = R.add(u, v)
        return k

@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        with R.dataflow():
            z = R.add(x, y)
            w = R.multiply(z, z)
            v = R.divide(w, z)
            R.output(v, w)

        @R.function(pure=False)
        def inner(p: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
            with R.dataflow():
                q = R.add(p, p)
                s = R.multiply(q, q)
                R.output(s)
            _ = R.call_packed("my_lib.log", s, sinfo_args=(R.Object,))
            return s

        u = inner(w)
        k = R.add(u, v)
        return k
