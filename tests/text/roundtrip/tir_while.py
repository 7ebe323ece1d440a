# While loops (TVM's tir.While): a counter in a local buffer, a condition
# that reads a buffer and a scalar parameter, a nested while inside a for
# loop with an allocation in its body, and the IR-builder form `with
# T.While(cond):`.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def halve_until_small(A: T.Buffer((1,), "int32"), limit: T.int32):
        while A[0] > limit:
            A[0] = A[0] // 2

    @T.prim_func
    def collatz_steps(X: T.Buffer((8,), "int64"), S: T.Buffer((8,), "int32")):
        for i in range(8):
            S[i] = 0
            while X[i] != T.int64(1):
                if X[i] % T.int64(2) == T.int64(0):
                    X[i] = X[i] // T.int64(2)
                else:
                    X[i] = X[i] * T.int64(3) + T.int64(1)
                S[i] = S[i] + 1

    @T.prim_func
    def nested(A: T.Buffer((4, 16), "float32"), n: T.int32):
        for i in T.parallel(4):
            k_data = T.allocate([1], "int32", "global")
            k = T.decl_buffer((1,), "int32", data=k_data)
            k[0] = 0
            while k[0] < n:
                tmp = T.decl_buffer((16,), "float32")
                for j in range(16):
                    tmp[j] = A[i, j] + T.float32(1)
                for j in range(16):
                    A[i, j] = tmp[j]
                k[0] = k[0] + 1

    @T.prim_func
    def builder_form(A: T.Buffer((1,), "int32")):
        with T.While(A[0] < 100):
            A[0] = A[0] * 3
