# ERROR: 10:38: a loop step must be positive, got 0
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        for i in T.serial(0, 8, step=0):
            A[i] = T.float32(0)
