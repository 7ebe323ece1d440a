# Buffers allocated inside a block with a scope; an explicit root block.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def cached(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
        with T.block("root"):
            T.reads()
            T.writes()
            cache = T.alloc_buffer((32,), scope="shared")
            for i in range(32):
                with T.block("load"):
                    vi = T.axis.spatial(32, i)
                    T.reads(A[vi])
                    T.writes(cache[vi])
                    cache[vi] = A[vi]
            for i in range(32):
                with T.sblock("store"):
                    vi = T.axis.spatial(32, i)
                    T.reads(cache[vi])
                    T.writes(B[vi])
                    local = T.sblock_alloc_buffer((1,), scope="local")
                    local[0] = cache[vi]
                    B[vi] = local[0]
