# Scalar parameters, a scalar return type and arithmetic on them.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def axpy(a: T.float32, X: T.Buffer((64,), "float32"), Y: T.Buffer((64,), "float32"), n: T.int32):
        for i in range(n):
            Y[i] = a * X[i] + Y[i]

    @T.prim_func(private=True)
    def ceil_div(a: T.int64, b: T.int64) -> T.int64:
        T.ret((a + b - T.int64(1)) // b)
