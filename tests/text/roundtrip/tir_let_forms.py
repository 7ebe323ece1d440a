# Let bindings in TVM's newer spellings: `x: T.let[T.int32] = v`, a typed
# handle `p: T.let[T.handle("float32")]`, `x = T.bind(v)`, `T.Bind(v, var=x)`
# for a declared x, and `T.meta_var` (a name for a value, no binding).
# Parameters: T.boolean, T.handle("void"), T.handle("int32"). A dtype may be
# TVM's pointer type `T.handle("float32").ty`.
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def lets(args: T.handle, flag: T.boolean, ret: T.handle("void"), ids: T.handle("int32")):
        width = T.meta_var(8)
        n: T.let[T.int32] = T.tvm_struct_get(args, 0, 4, dtype="int32")
        data: T.let[T.handle("float32")] = T.tvm_struct_get(args, 0, 1, dtype="handle")
        A = T.decl_buffer((16,), data=data)
        raw: T.let[T.handle("float32")] = T.reinterpret(T.handle("float32").ty, T.tvm_struct_get(args, 1, 1, dtype="handle"))
        T.evaluate(T.call_extern("consume", raw, dtype=""))
        m = T.bind(n * width)
        j = T.int32()
        T.Bind(m + 1, var=j)
        if flag:
            A[0] = T.Cast("float32", j)
        T.evaluate(-2147483648)
