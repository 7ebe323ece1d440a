# ERROR: 7:20: buffer 'A' has 2 dimensions but is indexed with 1 index
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i]
