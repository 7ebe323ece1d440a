# ERROR: 7:13: undefined buffer 'C'
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        for i in range(4):
            C[i] = A[i]
