# ERROR: 7:17: loop variable 'i' is already defined
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 4), "float32")):
        for i in range(4):
            for i in range(4):
                A[i, i] = T.float32(0)
