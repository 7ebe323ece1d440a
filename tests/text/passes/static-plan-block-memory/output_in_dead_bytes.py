# PASSES: static-plan-block-memory
# CHECKS: a function output of bounded size (n <= 16) is packed into the block's arena with the intermediates, alive from its allocation to the end: out, returned through a renaming, takes the bytes of a, dead once c is written, at 0; the arena (3072 bytes) is the most bytes alive at once (a, b and c), not one tensor more for the output
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n, 16]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, a)
        b = R.builtin.alloc_tensor(R.shape([n, 16]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(a, b)
        c = R.builtin.alloc_tensor(R.shape([n, 16]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.binary(a, b, c)
        out = R.builtin.alloc_tensor(R.shape([n, 16]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(c, out)
        gv = out
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([3072]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n, 16), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 16]), R.dtype("float32"))
        _: R.Object = cls.unary(x, a)
        b: R.Tensor((n, 16), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(1024), R.shape([n, 16]), R.dtype("float32"))
        _1: R.Object = cls.unary(a, b)
        c: R.Tensor((n, 16), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(2048), R.shape([n, 16]), R.dtype("float32"))
        _2: R.Object = cls.binary(a, b, c)
        out: R.Tensor((n, 16), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 16]), R.dtype("float32"))
        _3: R.Object = cls.unary(c, out)
        gv: R.Tensor((n, 16), dtype="float32") = out
        return gv
