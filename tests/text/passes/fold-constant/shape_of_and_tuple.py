# PASSES: fold-constant
# CHECKS: R.shape_of of a symbolic tensor becomes its shape, a shape variable used by an operator is inlined, indexing a known tuple yields the field (the trivial binding left is canonicalize-bindings' job)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n * m",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            s = R.shape_of(x)
            t = (x, s)
            y = t[0]
            flat = R.shape([n * m])
            gv = R.reshape(y, flat)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n * m",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            y = x
            gv = R.reshape(y, R.shape([n * m]))
            R.output(gv)
        return gv
