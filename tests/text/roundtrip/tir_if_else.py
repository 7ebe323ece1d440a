# If / else statements inside a loop nest.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def clamp(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
        for i in range(32):
            if A[i] < T.float32(0):
                B[i] = T.float32(0)
            elif A[i] > T.float32(6):
                B[i] = T.float32(6)
            else:
                B[i] = A[i]
            if i % 2 == 0:
                B[i] = B[i] * T.float32(2)
