# Vector accesses: slices load and store ramps; explicit Ramp and Broadcast.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def vec_add(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
        for i in range(16):
            C[i * 4:i * 4 + 4] = A[i * 4:i * 4 + 4] + B[i * 4:i * 4 + 4]
        for i in range(8):
            C[T.Ramp(i * 8, 1, 8)] = T.Broadcast(T.float32(0), 8)
