# Today's block spellings: T.sblock, T.sblock_alloc_buffer, T.sblock_attr
# (whose values may be buffers, as TVM's layout_free_placeholders).
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def func(A: T.Buffer((128, 128), "float32"), D: T.Buffer((128, 128), "float32")):
        C = T.sblock_alloc_buffer((128, 128))
        for i0, i1 in T.grid(128, 128):
            with T.sblock("C"):
                x, y = T.axis.remap("SS", [i0, i1])
                T.sblock_attr({"layout_free_placeholders": [C], "rank": 1})
                C[x, y] = A[x, y] * T.float32(2)
        for i0, i1 in T.grid(128, 128):
            with T.sblock("D"):
                x, y = T.axis.remap("SS", [i0, i1])
                D[x, y] = C[x, y] + T.float32(1)
