# int64 index arithmetic: symbolic int64 extents and typed literals.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def sum_rows(var_A: T.handle, var_B: T.handle):
        T.func_attr({"op_pattern": 3, "tir.noalias": T.bool(True)})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(256)), "float32")
        B = T.match_buffer(var_B, (n,), "float32")
        for i, k in T.grid(n, T.int64(256)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
