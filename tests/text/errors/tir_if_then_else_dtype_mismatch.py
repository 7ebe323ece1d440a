# ERROR: 11:68: T.if_then_else: dtype=float16 but the values are float32
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = T.if_then_else(i < 3, A[i], T.float32(0), dtype="float16")
