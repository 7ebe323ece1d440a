# ERROR: 5:23: expected a buffer shape such as (2, 3), got the string "float32"
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer("float32", (4, 4))):
        A[0, 0] = T.float32(0)
