# ERROR: 8:49: is not the variable of an enclosing loop
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 4), "float32"), n: T.int32):
        for i, j in T.grid(4, 4):
            with T.block("A"):
                vi, vj = T.axis.remap("SS", [i, n])
                A[vi, vj] = T.float32(0)
