# Loops with a step (TVM's For.step): every loop kind, a symbolic start, the
# three-argument range, and a step from 0.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def strided(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), start: T.int32):
        for i in T.serial(start, 64, step=2):
            B[i] = A[i] + T.float32(1)
        for i in T.unroll(0, 16, step=4):
            B[i] = A[i] * T.float32(2)
        for i in T.vectorized(start, 64, step=3):
            B[i] = A[i]
        for i in T.parallel(1, 64, step=5):
            B[i] = T.float32(0)
        for i in range(start, 64, 6):
            B[i] = B[i] - A[i]
