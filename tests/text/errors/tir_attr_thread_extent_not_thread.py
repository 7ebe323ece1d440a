# ERROR: 10:16: T.attr: thread_extent must be attached to a thread variable (T.env_thread)
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32"), n: T.int32):
        T.attr(n, "thread_extent", 4)
        A[0] = T.float32(1)
