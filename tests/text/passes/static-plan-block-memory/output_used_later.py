# PASSES: static-plan-block-memory
# CHECKS: an output that later operators read (o, read by the writers of c and e) stays alive to the end of the block after its last read: d, allocated after o's last read, does not take o's bytes but the dead a's; e, the second output, is written while o, c and d are alive
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((8, 8), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, a)
        o = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(a, o)
        c = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.binary(a, o, c)
        d = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(c, d)
        e = R.builtin.alloc_tensor(R.shape([8, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4 = cls.binary(c, d, e)
        return (o, e)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((8, 8), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([1024]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8, 8]), R.dtype("float32"))
        _: R.Object = cls.unary(x, a)
        o: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(256), R.shape([8, 8]), R.dtype("float32"))
        _1: R.Object = cls.unary(a, o)
        c: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(512), R.shape([8, 8]), R.dtype("float32"))
        _2: R.Object = cls.binary(a, o, c)
        d: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8, 8]), R.dtype("float32"))
        _3: R.Object = cls.unary(c, d)
        e: R.Tensor((8, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(768), R.shape([8, 8]), R.dtype("float32"))
        _4: R.Object = cls.binary(c, d, e)
        return (o, e)
