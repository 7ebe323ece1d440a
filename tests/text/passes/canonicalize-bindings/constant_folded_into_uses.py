# PASSES: canonicalize-bindings
# CHECKS: a variable bound to a constant is replaced by the constant where it is used (TVM test_fold_const_to_output, test_unwrap_tuple_of_constant)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2,), dtype="int64")):
        c = R.const(1, "int64")
        t = (c, x)
        a = t[0]
        y = R.add(a, x)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2,), dtype="int64")):
        c = R.const(1, "int64")
        t = (R.const(1, "int64"), x)
        y = R.add(R.const(1, "int64"), x)
        return y
