# PASSES: normalize
# CHECKS: nested calls inside If branches are normalized into the branches' own bindings (TVM test_normalize_if)
@I.ir_module
class Before:
    @R.function(private=True)
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        if cond:
            y = R.multiply(R.add(x, x), R.add(x, x))
        else:
            y = R.add(R.multiply(x, x), R.multiply(x, x))
        return y

@I.ir_module
class Expected:
    @R.function(private=True)
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        if cond:
            gv = R.add(x, x)
            gv1 = R.add(x, x)
            y = R.multiply(gv, gv1)
        else:
            gv = R.multiply(x, x)
            gv1 = R.multiply(x, x)
            y = R.add(gv, gv1)
        return y
