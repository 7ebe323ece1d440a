# ERROR: 10:15: the condition of a while loop must be a boolean expression, got a value of type int32
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((1,), "int32")):
        while A[0]:
            A[0] = A[0] - 1
