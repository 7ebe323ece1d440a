# PASSES: normalize
# CHECKS: nested calls are in A-normal form, each in its own binding, with deduced symbolic shapes (TVM test_normalize_function)
@I.ir_module
class Before:
    @R.function(private=True)
    def main(x: R.Tensor(("m", "n"), dtype="float16")) -> R.Tensor(dtype="float16", ndim=2):
        return R.multiply(R.add(x, x), R.add(x, x))

@I.ir_module
class Expected:
    @R.function(private=True)
    def main(x: R.Tensor(("m", "n"), dtype="float16")) -> R.Tensor(dtype="float16", ndim=2):
        m = T.int64()
        n = T.int64()
        gv: R.Tensor((m, n), dtype="float16") = R.add(x, x)
        gv1: R.Tensor((m, n), dtype="float16") = R.add(x, x)
        gv2: R.Tensor((m, n), dtype="float16") = R.multiply(gv, gv1)
        return gv2
