# PASSES: fold-constant
# CHECKS: a call_tir with a tuple of outputs (R.split legalized on the fly) folds into a tuple of constants, and indexing it yields the constants
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32")) -> R.Tensor(("n", 2), dtype="float32"):
        with R.dataflow():
            c = R.const([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], "float32")
            parts = R.split(c, indices_or_sections=2, axis=0)
            top = parts[0]
            bottom = parts[1]
            s = R.add(top, bottom)
            row = R.sum(s, axis=[0], keepdims=True)
            gv = R.add(x, row)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32")) -> R.Tensor(("n", 2), dtype="float32"):
        with R.dataflow():
            gv = R.add(x, R.const([[16.0, 20.0]], "float32"))
            R.output(gv)
        return gv
