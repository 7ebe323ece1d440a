# CPU loop kinds: parallel, vectorized, unrolled, and a plain range from a start.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def scale(A: T.Buffer((64, 16), "float32"), B: T.Buffer((64, 16), "float32")):
        for i in T.parallel(64):
            for j_outer in T.unroll(4):
                for j_inner in T.vectorized(4):
                    with T.block("B"):
                        vi = T.axis.spatial(64, i)
                        vj = T.axis.spatial(16, j_outer * 4 + j_inner)
                        T.reads(A[vi, vj])
                        T.writes(B[vi, vj])
                        B[vi, vj] = A[vi, vj] * T.float32(2)
        for k in range(2, 10):
            A[k, 0] = T.float32(0)
