# ERROR: 6:18: T.thread_binding: the thread is given twice
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        for i in T.thread_binding(4, "threadIdx.x", thread="threadIdx.y"):
            A[i] = T.float32(0)
