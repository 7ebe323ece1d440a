# A block matching a sub-region of a buffer.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def tile_sum(A: T.Buffer((16, 16), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("tile"):
                vi = T.axis.spatial(4, i)
                T.reads(A[vi * 4:vi * 4 + 4, 0:16])
                T.writes(B[vi])
                sub = T.match_buffer(A[vi * 4:vi * 4 + 4, 0:16], (4, 16))
                B[vi] = sub[0, 0] + sub[3, 15]
