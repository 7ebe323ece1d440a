# ERROR: 7:26: T.Bind: var= must name a declared variable (e.g. x = T.int32())
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        x = 1
        T.Bind(A[0], var=y)
        A[1] = x
