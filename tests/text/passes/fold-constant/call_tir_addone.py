# PASSES: fold-constant
# CHECKS: R.call_tir of a PrimFunc on a constant is evaluated into a constant; the PrimFunc stays (TVM test_one_fold_addone)
@I.ir_module
class Before:
    @T.prim_func
    def addone(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        for i, j in T.grid(2, 3):
            with T.block("addone"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def before() -> R.Tensor((2, 3), dtype="float32"):
        cls = Before
        c0 = R.const([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "float32")
        lv0 = R.call_tir(cls.addone, (c0,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        return lv0

@I.ir_module
class Expected:
    @T.prim_func
    def addone(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        for i, j in T.grid(2, 3):
            with T.block("addone"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def before() -> R.Tensor((2, 3), dtype="float32"):
        return R.const([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")
