# Block and loop sugar from TVM's tests: T.match_buffer of a region without
# shape/dtype (the region's extents and the source's dtype), and
# T.thread_binding with the thread as its second positional argument, and
# T.grid(*A.shape), and vector slices with a step (`a:b:s` is a Ramp of stride s).
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def implicit_region(A: T.Buffer((16, 64), "int32")):
        for i in T.thread_binding(2, "threadIdx.x"):
            with T.block():
                vi = T.axis.spatial(2, i)
                B = T.match_buffer(A[vi * 8 : vi * 8 + 8, 32:64])
                for j, k in T.grid(8, 32):
                    B[j, k] = 0

    @T.prim_func
    def spread_shape(lhs: T.Buffer((T.int64(4), T.int64(3)), "float32"), rhs: T.float32, out: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        for i, j in T.grid(*lhs.shape):
            with T.block("T_add"):
                vi, vj = T.axis.remap("SS", [i, j])
                out[vi, vj] = lhs[vi, vj] + rhs

    @T.prim_func
    def stepped_slices(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for i in range(4):
            B[i : i + 128 : 4] = A[T.Ramp(i, 4, 32)] + T.broadcast(T.float32(1), 32)
            B[i * 32 : i * 32 + 8 : 1] = A[i * 32 : i * 32 + 15 : 2]
