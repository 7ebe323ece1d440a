# PASSES: static-plan-block-memory
# CHECKS: bounded (n <= 16) and constant tensors are packed into one arena at 64-byte-aligned offsets by live interval (b, the largest, at 0; a, alive with b, after it; e, alive with neither, at 0; d, alive with e, after e), its size 768 the most bytes alive at once (a and b); c, unbounded in m, keeps a storage of its own; the output, unbounded in m, is not planned
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, a)
        b = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.binary(x, a, b)
        c = R.builtin.alloc_tensor(R.shape([m, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(b, c)
        d = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.binary(c, c, d)
        e = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4 = cls.binary(d, x, e)
        out = R.builtin.alloc_tensor(R.shape([n, m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _5 = cls.unary(e, out)
        return out

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([768]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(512), R.shape([n, 4]), R.dtype("float32"))
        _: R.Object = cls.unary(x, a)
        b: R.Tensor((n, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 8]), R.dtype("float32"))
        _1: R.Object = cls.binary(x, a, b)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([m * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        c: R.Tensor((m, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([m, 4]), R.dtype("float32"))
        _2: R.Object = cls.unary(b, c)
        d: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(256), R.shape([4]), R.dtype("float32"))
        _3: R.Object = cls.binary(c, c, d)
        e: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _4: R.Object = cls.binary(d, x, e)
        out: R.Tensor((n, m), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _5: R.Object = cls.unary(e, out)
        return out
