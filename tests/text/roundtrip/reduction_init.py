# A matmul PrimFunc with a reduction axis and T.init, called from Relax.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func
    def matmul(A: T.Buffer((128, 64), "float32"), B: T.Buffer((64, 32), "float32"), C: T.Buffer((128, 32), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, j, k in T.grid(128, 32, 64):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @R.function
    def main(a: R.Tensor((128, 64), dtype="float32"), b: R.Tensor((64, 32), dtype="float32")) -> R.Tensor((128, 32), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.matmul, (a, b), out_sinfo=R.Tensor((128, 32), dtype="float32"))
        return gv
