# Direct LLVM intrinsic calls as TVM writes them: the intrinsic named with
# T.llvm_lookup_intrinsic_id, the result dtype first or as dtype=, pure and
# impure forms.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def bits(A: T.Buffer((16,), "uint8"), B: T.Buffer((16,), "uint8")):
        for i in range(16):
            B[i] = T.call_llvm_pure_intrin(T.llvm_lookup_intrinsic_id("llvm.ctpop.i8"), A[i], dtype="uint8")

    @T.prim_func
    def fused(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            B[i] = T.call_llvm_pure_intrin("float32", T.llvm_lookup_intrinsic_id("llvm.fma"), A[i], A[i], B[i])
        T.call_llvm_intrin("void", T.llvm_lookup_intrinsic_id("llvm.donothing"))
