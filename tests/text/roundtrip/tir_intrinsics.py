# Math intrinsics and special float constants.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def gelu_like(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for i in range(128):
            with T.block("B"):
                vi = T.axis.spatial(128, i)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = A[vi] * T.sigmoid(A[vi] * T.float32(1.702)) + T.sqrt(T.exp(A[vi])) - T.tanh(T.log(T.fabs(A[vi]) + T.float32(1)))
        for i in range(128):
            with T.block("clamp"):
                vi = T.axis.spatial(128, i)
                T.reads(B[vi])
                T.writes(B[vi])
                B[vi] = T.min(T.max(B[vi], T.float32("-inf")), T.float32("inf")) + T.pow(B[vi], T.float32(2))
