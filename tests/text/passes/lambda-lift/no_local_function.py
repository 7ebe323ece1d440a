# PASSES: lambda-lift
# CHECKS: a module without local functions is unchanged (TVM test_no_local_func)
@I.ir_module
class Before:
    @T.prim_func
    def sub(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        for i, j in T.grid(16, 16):
            with T.block("sub"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] - B[vi, vj]

    @R.function
    def before(c0: R.Tensor((16, 16), dtype="float32"), x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor((16, 16), dtype="float32"):
        cls = Before
        s = R.call_tir(cls.sub, (c0, x), out_sinfo=R.Tensor((16, 16), dtype="float32"))
        return s

@I.ir_module
class Expected:
    @T.prim_func
    def sub(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        for i, j in T.grid(16, 16):
            with T.block("sub"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] - B[vi, vj]

    @R.function
    def before(c0: R.Tensor((16, 16), dtype="float32"), x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor((16, 16), dtype="float32"):
        cls = Expected
        s = R.call_tir(cls.sub, (c0, x), out_sinfo=R.Tensor((16, 16), dtype="float32"))
        return s
