# Integer division kinds: floordiv / floormod infix, truncdiv / truncmod explicit.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def divisions(A: T.Buffer((32,), "int32"), F: T.Buffer((32,), "float32")):
        for i in range(32):
            A[i] = i // 4 + i % 4 - T.truncdiv(i - 16, 3) + T.truncmod(i - 16, 3)
            F[i] = T.Cast("float32", i) / T.float32(3)
