# Buffer views (`T.Buffer(shape, data=ptr)`, as TVM writes flattened
# buffers): over a parameter's data, over an allocation inside a loop, and a
# strided view of a declared buffer. The printer declares each view right
# after the pointer it uses.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def flat(input_A: T.Buffer((16, 16), "float32"), input_C: T.Buffer((16, 16), "float32")):
        A = T.Buffer((256,), data=input_A.data)
        C = T.Buffer((256,), data=input_C.data)
        for i in range(16):
            B_data = T.allocate([16], "float32", "global")
            B = T.Buffer((16,), data=B_data)
            for j in range(16):
                B[j] = A[i * 16 + j] + T.float32(1)
            for j in range(16):
                C[i * 16 + j] = B[j] * T.float32(2)

    @T.prim_func
    def strided(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        for i0 in range(4):
            B = T.decl_buffer((4, 17))
            B_1 = T.Buffer((4, 16), data=B.data, strides=(17, 1))
            for i1, j in T.grid(4, 16):
                B_1[i1, j] = A[i0 * 4 + i1, j] + T.float32(1)
            for i1, j in T.grid(4, 16):
                C[i0 * 4 + i1, j] = B_1[i1, j] * T.float32(2)
