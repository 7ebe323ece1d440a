# ERROR: 9:9: duplicate function name 'f' (first defined at line 5)
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((4,), dtype="float32")):
        return x

    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(0)
