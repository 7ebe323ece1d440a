# Buffers with symbolic shapes matched from handle parameters.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def transpose(var_A: T.handle, var_B: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(var_A, (m, n), "float16")
        B = T.match_buffer(var_B, (n, m), "float16")
        for i, j in T.grid(n, m):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vj, vi])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vj, vi]
