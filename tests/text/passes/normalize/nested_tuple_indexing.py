# PASSES: normalize
# CHECKS: nested tuples and tuple indexing get their struct info deduced, symbolic shapes included (TVM test_normalize_tuple_get_item)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), y: R.Tensor(("n",), dtype="int32")):
        t = ((x, y), x)
        inner = t[0]
        a = inner[1]
        return a

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), y: R.Tensor(("n",), dtype="int32")):
        n = T.int64()
        t: R.Tuple(R.Tuple(R.Tensor((n, 3), dtype="float32"), R.Tensor((n,), dtype="int32")), R.Tensor((n, 3), dtype="float32")) = ((x, y), x)
        inner: R.Tuple(R.Tensor((n, 3), dtype="float32"), R.Tensor((n,), dtype="int32")) = t[0]
        a: R.Tensor((n,), dtype="int32") = inner[1]
        return a
