# AttrStmt: T.attr on a buffer's data and on a string (concise and with
# forms), and GPU thread bindings via T.launch_thread / T.env_thread.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def pragmas(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        with T.attr(A.data, "storage_alignment", 64):
            for i in range(16):
                B[i] = A[i] * T.float32(2)
        T.attr("default", "pragma_unroll", 4)
        for j in range(16):
            B[j] = B[j] + T.float32(1)

    @T.prim_func
    def gpu_copy(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
        bx = T.launch_thread("blockIdx.x", 2)
        tx = T.launch_thread("threadIdx.x", 128)
        B[bx * 128 + tx] = A[bx * 128 + tx]

    @T.prim_func
    def env_threads(A: T.Buffer((64,), "float32")):
        tx = T.env_thread("threadIdx.x")
        with T.launch_thread(tx, 64):
            A[tx] = T.float32(0)
