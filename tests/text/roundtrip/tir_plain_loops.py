# A PrimFunc without blocks gets no root block; subscript-style buffer params.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def copy(A: T.Buffer[(4, 4), "float16"], B: T.Buffer[(4, 4), "float16"]):
        for i in range(4):
            for j in range(1, 4):
                B[i, j] = A[i, j - 1]
            B[i, 0] = T.float16(0)
