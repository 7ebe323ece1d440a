# Every axis kind, a (min, max) domain, and a block reading a shifted window.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def window(A: T.Buffer((20,), "float32"), B: T.Buffer((16,), "float32")):
        for i, k in T.grid(16, 4):
            with T.block("B"):
                vi = T.axis.spatial((0, 16), i)
                vk = T.axis.reduce((2, 6), k + 2)
                T.reads(A[vi + vk - 2])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi + vk - 2]
        for i in range(4):
            with T.block("scan"):
                vs = T.axis.scan(4, i)
                vo = T.axis.opaque(4, i)
                T.reads(B[vs])
                T.writes(B[vo])
                B[vo] = B[vs]
