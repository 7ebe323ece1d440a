# A PrimFunc with two outputs: out_sinfo is a list, the result a tuple.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split_sign(A: T.Buffer((8,), "float32"), Pos: T.Buffer((8,), "float32"), Neg: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("split"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(Pos[vi], Neg[vi])
                Pos[vi] = T.max(A[vi], T.float32(0))
                Neg[vi] = T.min(A[vi], T.float32(0))

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        with R.dataflow():
            parts = R.call_tir(cls.split_sign, (x,), out_sinfo=[R.Tensor((8,), dtype="float32"), R.Tensor((8,), dtype="float32")])
            pos = parts[0]
            neg = parts[1]
            gv = R.subtract(pos, neg)
            R.output(gv)
        return gv
