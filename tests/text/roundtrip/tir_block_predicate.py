# Split loops with a block predicate, explicit axis bindings and block attributes.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def padded_copy(A: T.Buffer((100,), "float32"), B: T.Buffer((100,), "float32")):
        for io, ii in T.grid(4, 32):
            with T.block("B"):
                vi = T.axis.spatial(100, io * 32 + ii)
                T.where(io * 32 + ii < 100)
                T.reads(A[vi])
                T.writes(B[vi])
                T.block_attr({"meta_schedule.auto_tensorize": "copy", "priority": 2})
                B[vi] = A[vi]
