# T.if_then_else with the result dtype spelled out (dtype=, as older
# TVMScript printed it): a guarded load for zero padding.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def pad(A: T.Buffer((14,), "uint8"), B: T.Buffer((16,), "uint8")):
        for i in range(16):
            B[i] = T.if_then_else(1 <= i and i < 15, A[i - 1], T.uint8(0), dtype="uint8")
