# PASSES: fold-constant
# CHECKS: call_tir with a non-constant argument, or with a symbolic output shape, is left alone (TVM test_fold_mixed_case)
@I.ir_module
class Before:
    @T.prim_func
    def addone(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            with T.block("addone"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Before
        lv0 = R.call_tir(cls.addone, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
        return lv0

@I.ir_module
class Expected:
    @T.prim_func
    def addone(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            with T.block("addone"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Expected
        lv0 = R.call_tir(cls.addone, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
        return lv0
