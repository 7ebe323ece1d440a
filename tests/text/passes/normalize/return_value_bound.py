# PASSES: normalize
# CHECKS: a function whose body returns a call gets the call bound to a variable (TVM test_normalize_seq_body, test_normalize_func_body)
@I.ir_module
class Before:
    @R.function(private=True)
    def main(x: R.Tensor((), dtype="int32"), y: R.Tensor((), dtype="int32")) -> R.Tensor(ndim=0, dtype="int32"):
        return R.add(x, y)

@I.ir_module
class Expected:
    @R.function(private=True)
    def main(x: R.Tensor((), dtype="int32"), y: R.Tensor((), dtype="int32")) -> R.Tensor(ndim=0, dtype="int32"):
        z = R.add(x, y)
        return z
