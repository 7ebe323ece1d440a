# ERROR: 10:25: T.launch_thread: expected a thread tag string or a T.env_thread variable
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32"), n: T.int32):
        T.launch_thread(n, 4)
        A[0] = T.float32(1)
