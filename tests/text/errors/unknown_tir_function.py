# ERROR: 7:20: unknown TIR function 'T.expp'
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.expp(A[i])
