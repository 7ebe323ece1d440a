# call_tir_inplace writes its output into an input.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_inplace(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                T.reads(A[vi], B[vi])
                T.writes(A[vi])
                A[vi] = A[vi] + B[vi]

    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), y: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        cls = Module
        gv = R.call_tir_inplace(cls.add_inplace, (x, y), out_sinfo=R.Tensor((16,), dtype="float32"), inplace_indices=[0])
        return gv
