# T.Select, T.if_then_else and T.Cast.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def select_cast(A: T.Buffer((8, 8), "int32"), B: T.Buffer((8, 8), "float32"), C: T.Buffer((8, 8), "float32")):
        for i, j in T.grid(8, 8):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = T.Select(A[vi, vj] > 0, T.Cast("float32", A[vi, vj]), T.float32(0))
        for i, j in T.grid(8, 8):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(B[vi, vj])
                T.writes(C[vi, vj])
                C[vi, vj] = T.if_then_else(vi == vj, B[vi, vj], T.float32(-1))
