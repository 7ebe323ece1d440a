# PrimFunc spellings from TVM's own tests: `-> None`, a single-target
# T.axis.remap, loop variables that shadow an outer name (a buffer dimension
# `k` and an enclosing loop `i`), and T.grid extents read before any of its
# variables is bound.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def matmul(a: T.handle, b: T.handle, c: T.handle) -> None:
        m = T.int32()
        n = T.int32()
        k = T.int32()
        A = T.match_buffer(a, (m, n))
        B = T.match_buffer(b, (n, k))
        C = T.match_buffer(c, (m, k))
        for i, j, k in T.grid(m, k, n):
            with T.block("matmul"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @T.prim_func
    def copy(A: T.Buffer((16,), "float16"), B: T.Buffer((16,), "float16")) -> None:
        for i in range(16):
            with T.block("copy"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi]

    @T.prim_func
    def shadow(A: T.Buffer((4, 4), "float32")):
        for i in range(4):
            A[i, 0] = T.float32(1)
            for i in range(4):
                A[i, i] = T.float32(0)
