# PASSES: static-plan-block-memory
# CHECKS: tensors of different dtypes share one arena (its dtype then uint8), alive together so at disjoint offsets; a dimension the analyzer cannot prove non-negative (n - 1 with n in [0, 16]) is not replaced by its bound, so that tensor keeps a symbolic storage of its own; the bounded output takes the dead a's bytes at 0
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, a)
        b = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(a, b)
        c = R.builtin.alloc_tensor(R.shape([n - 1, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(b, c)
        out = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(c, out)
        return out

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([512]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        a: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _: R.Object = cls.unary(x, a)
        b: R.Tensor((n, 4), dtype="int32") = R.memory.alloc_tensor(storage, R.prim_value(256), R.shape([n, 4]), R.dtype("int32"))
        _1: R.Object = cls.unary(a, b)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([n * 16 - 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        c: R.Tensor((n - 1, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n - 1, 4]), R.dtype("float32"))
        _2: R.Object = cls.unary(b, c)
        out: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _3: R.Object = cls.unary(c, out)
        return out
