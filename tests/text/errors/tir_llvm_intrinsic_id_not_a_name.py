# ERROR: 11:53: T.llvm_lookup_intrinsic_id takes the intrinsic's name, e.g. "llvm.ctpop.i8"
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "uint8"), B: T.Buffer((4,), "uint8")):
        for i in range(4):
            B[i] = T.call_llvm_pure_intrin("uint8", T.llvm_lookup_intrinsic_id(7), A[i])
