# `-> None` is TVM's spelling of a function returning the empty tuple; a
# graph function may call a PrimFunc directly: the call is pure when the
# PrimFunc writes only memory it allocates (a scalar reduction returned with
# `return`), impure when it writes its argument (then the caller is impure).
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def total(A: T.Buffer((4,), "float32")) -> T.float32:
        acc = T.decl_buffer((1,), "float32")
        acc[0] = T.float32(0)
        for i in range(4):
            acc[0] = acc[0] + A[i]
        return acc[0]

    @T.prim_func(private=True)
    def zero_first(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(0)

    @R.function
    def pure_caller(x: R.Tensor((4,), "float32")) -> R.Prim("float32"):
        s = Module.total(x)
        return s

    @R.function(pure=False)
    def impure_caller(x: R.Tensor((4,), "float32")) -> None:
        Module.zero_first(x)
        R.print(x, format="x = {}")
        return R.tuple()
