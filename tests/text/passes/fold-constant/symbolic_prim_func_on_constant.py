# PASSES: fold-constant
# CHECKS: a PrimFunc with a symbolic extent folds when the constant argument fixes it
@I.ir_module
class Before:
    @T.prim_func
    def double(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "int32")
        B = T.match_buffer(b, (n,), "int32")
        for i in range(n):
            with T.block("double"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * 2

    @R.function
    def main(x: R.Tensor((4,), dtype="int32")) -> R.Tensor((4,), dtype="int32"):
        cls = Before
        c = R.const([1, 2, 3, 4], "int32")
        d = R.call_tir(cls.double, (c,), out_sinfo=R.Tensor((4,), dtype="int32"))
        gv = R.add(x, d)
        return gv

@I.ir_module
class Expected:
    @T.prim_func
    def double(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "int32")
        B = T.match_buffer(b, (n,), "int32")
        for i in range(n):
            with T.block("double"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * 2

    @R.function
    def main(x: R.Tensor((4,), dtype="int32")) -> R.Tensor((4,), dtype="int32"):
        gv = R.add(x, R.const([2, 4, 6, 8], "int32"))
        return gv
