# ERROR: 7:20: '/' on integers is ambiguous
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8,), "int32")):
        for i in range(8):
            A[i] = i / 2
