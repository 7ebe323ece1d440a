# ERROR: 7:18: T.axis.spatial is only allowed inside a block
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        for i in range(4):
            vi = T.axis.spatial(4, i)
            A[vi] = T.float32(0)
