# call_tir passing symbolic values through tir_vars.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift(var_A: T.handle, var_B: T.handle, offset: T.int64):
        n = T.int64()
        A = T.match_buffer(var_A, (n,), "float32")
        B = T.match_buffer(var_B, (n + offset,), "float32")
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                T.reads(A[vi])
                T.writes(B[vi + offset])
                B[vi + offset] = A[vi]

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), shift_by: R.Shape(["k"])) -> R.Tensor(("n + k",), dtype="float32"):
        n = T.int64()
        k = T.int64()
        cls = Module
        gv = R.call_tir(cls.shift, (x,), out_sinfo=R.Tensor((n + k,), dtype="float32"), tir_vars=R.shape([k]))
        return gv
