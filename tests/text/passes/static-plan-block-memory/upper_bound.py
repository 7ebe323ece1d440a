# PASSES: static-plan-block-memory
# CHECKS: with tir_var_upper_bound every planned tensor gets the static size of the upper bound (n <= 1024), so tensors of different symbolic sizes share one arena (its size 49152 the most bytes alive at once: alloc2 and alloc3); the output alloc5, bounded, takes the bytes of the dead alloc3 at 0; a var only known non-negative (tir_non_negative_var) keeps its symbolic size
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 1024}, "tir_non_negative_var": ["m"], "relax.force_pure": True})
        cls = Before
        alloc = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, alloc)
        alloc1 = R.builtin.alloc_tensor(R.shape([n, 2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(alloc, alloc1)
        alloc2 = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(alloc1, alloc2)
        alloc3 = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(alloc2, alloc3)
        alloc4 = R.builtin.alloc_tensor(R.shape([m, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4 = cls.unary(alloc3, alloc4)
        alloc5 = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _5 = cls.unary(alloc4, alloc5)
        return alloc5

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 1024}, "tir_non_negative_var": ["m"], "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([49152]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _: R.Object = cls.unary(x, alloc)
        alloc1: R.Tensor((n, 2), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(16384), R.shape([n, 2]), R.dtype("float32"))
        _1: R.Object = cls.unary(alloc, alloc1)
        alloc2: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(32768), R.shape([n, 4]), R.dtype("float32"))
        _2: R.Object = cls.unary(alloc1, alloc2)
        alloc3: R.Tensor((n, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 8]), R.dtype("float32"))
        _3: R.Object = cls.unary(alloc2, alloc3)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([m * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc4: R.Tensor((m, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([m, 4]), R.dtype("float32"))
        _4: R.Object = cls.unary(alloc3, alloc4)
        alloc5: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _5: R.Object = cls.unary(alloc4, alloc5)
        return alloc5
