# Augmented stores are read-modify-write buffer stores.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def accumulate(A: T.Buffer((8, 8), "float32"), S: T.Buffer((8,), "float32")):
        for i in range(8):
            S[i] = T.float32(0)
            for j in range(8):
                S[i] += A[i, j]
            S[i] *= T.float32(0.125)
            S[i] -= T.float32(1)
