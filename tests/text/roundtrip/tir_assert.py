# Assertions guard the rest of the function.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def checked_copy(var_A: T.handle, var_B: T.handle, n: T.int32):
        A = T.match_buffer(var_A, (n,), "float32")
        B = T.match_buffer(var_B, (n,), "float32")
        assert n > 0, "n must be positive"
        assert n <= 4096, "n is too large"
        for i in range(n):
            B[i] = A[i]
