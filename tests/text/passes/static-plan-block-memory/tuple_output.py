# PASSES: static-plan-block-memory
# CHECKS: outputs returned as fields of a tuple are packed like single outputs: p (returned through a tuple bound to a variable) and q (returned as R.reshape's view of it) are both alive to the end, so at disjoint offsets, and p takes the dead a's bytes; the parameter x returned beside them holds no allocation and is untouched
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((64,), dtype="float32")), R.Tensor((8, 8), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, a)
        b = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(a, b)
        p = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(b, p)
        q = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(b, q)
        v = R.reshape(q, R.shape([64]))
        t = (p, v)
        return (t, x)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((64,), dtype="float32")), R.Tensor((8, 8), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([768]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8, 8]), R.dtype("float32"))
        _: R.Object = cls.unary(x, a)
        b: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(256), R.shape([8, 8]), R.dtype("float32"))
        _1: R.Object = cls.unary(a, b)
        p: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8, 8]), R.dtype("float32"))
        _2: R.Object = cls.unary(b, p)
        q: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(512), R.shape([8, 8]), R.dtype("float32"))
        _3: R.Object = cls.unary(b, q)
        v: R.Tensor((64,), dtype="float32") = R.reshape(q, R.shape([64]))
        t: R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((64,), dtype="float32")) = (p, v)
        return (t, x)
