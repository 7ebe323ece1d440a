# ERROR: 6:28: T.exp has no argument 'fast'
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        A[0] = T.exp(A[1], fast=True)
