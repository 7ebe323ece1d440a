# PASSES: fold-constant
# CHECKS: a chain of call_tir on constants folds step by step; the intermediate bindings disappear (TVM test_two_hop_addone)
@I.ir_module
class Before:
    @T.prim_func
    def addone(A: T.Buffer((2, 2), "float32"), B: T.Buffer((2, 2), "float32")):
        for i, j in T.grid(2, 2):
            with T.block("addone"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main() -> R.Tensor((2, 2), dtype="float32"):
        cls = Before
        c0 = R.const([[1.0, 2.0], [3.0, 4.0]], "float32")
        lv0 = R.call_tir(cls.addone, (c0,), out_sinfo=R.Tensor((2, 2), dtype="float32"))
        lv1 = R.call_tir(cls.addone, (lv0,), out_sinfo=R.Tensor((2, 2), dtype="float32"))
        return lv1

@I.ir_module
class Expected:
    @T.prim_func
    def addone(A: T.Buffer((2, 2), "float32"), B: T.Buffer((2, 2), "float32")):
        for i, j in T.grid(2, 2):
            with T.block("addone"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main() -> R.Tensor((2, 2), dtype="float32"):
        return R.const([[3.0, 4.0], [5.0, 6.0]], "float32")
