# LetStmt: the annotated-assignment form and the with-scope form.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def let_bindings(A: T.Buffer((16,), "int32"), n: T.int32):
        with T.LetStmt(n * 2) as doubled:
            for i in range(16):
                A[i] = doubled + i
        offset: T.int32 = n + 1
        A[0] = offset
