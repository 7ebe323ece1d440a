# Expression-level let, boolean logic, chained comparisons and explicit nodes.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def logic(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "bool"), n: T.int32):
        x = T.int32()
        for i in range(16):
            B[i] = 0 <= A[i] < n and not A[i] == 3 or T.And(i > 2, i != 5)
            A[i] = T.Let(x * x + 1, where={x: A[i] + i})
            A[i] = T.Add(A[i], 0) + T.Mul(1, A[i]) - T.FloorDiv(A[i], 1)
