# TVM's TIR builtins as opaque calls: dtype= is written where it cannot be
# inferred (tvm_struct_get, type_annotation) or differs from the default;
# T.call_extern with the dtype as a keyword; lower-case T.ramp/T.broadcast;
# math intrinsics with a redundant dtype=.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def builtins(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), n: T.int32):
        T.assume(n > 0)
        if T.isnullptr(A.data):
            T.evaluate(T.tvm_throw_last_error())
        T.tvm_storage_sync("shared")
        ptr: T.let[T.handle] = T.address_of(A[0])
        T.evaluate(T.call_extern("deref", ptr, dtype="float32"))
        T.evaluate(T.tvm_access_ptr(T.type_annotation(dtype="float32"), A.data, 0, 64, 1))
        mask = T.meta_var(T.tvm_warp_activemask())
        B[0] = T.tvm_warp_shuffle(mask, A[1], 0, 32, 32) + T.exp(A[2], dtype="float32")
        B[T.ramp(8, 1, 4)] = A[T.ramp(0, 1, 4)] + T.broadcast(T.float32(1), 4)
        T.evaluate(T.tvm_call_packed("tvm.test", A.data, n))
