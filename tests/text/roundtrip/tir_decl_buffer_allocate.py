# Low-level buffers: T.allocate and T.decl_buffer, scoped and concise.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def staged(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
        with T.decl_buffer((64,), "float32", scope="local") as tmp:
            for i in range(64):
                tmp[i] = A[i] * T.float32(2)
            for i in range(64):
                B[i] = tmp[i]
        buf = T.allocate([16], "float32", "global")
        view = T.decl_buffer((4, 4), "float32", data=buf)
        for i, j in T.grid(4, 4):
            view[i, j] = T.float32(1)
