# PASSES: static-plan-block-memory
# CHECKS: with relax.memory_plan_dynamic_func_output the output of symbolic shape gets a storage of its upper-bound size too (and the attribute is dropped); without an upper bound it keeps its symbolic size
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("m",), dtype="float32"), R.Tensor((3,), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 32}, "relax.memory_plan_dynamic_func_output": True, "relax.force_pure": True})
        cls = Before
        alloc = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, alloc)
        alloc1 = R.builtin.alloc_tensor(R.shape([m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(y, alloc1)
        alloc2 = R.builtin.alloc_tensor(R.shape([3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(y, alloc2)
        return (alloc, alloc1, alloc2)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("m",), dtype="float32"), R.Tensor((3,), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 32}, "relax.force_pure": True})
        cls = Expected
        storage = R.memory.alloc_storage(R.shape([512]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _ = cls.unary(x, alloc)
        storage1 = R.memory.alloc_storage(R.shape([m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1 = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([m]), R.dtype("float32"))
        _1 = cls.unary(y, alloc1)
        alloc2 = R.builtin.alloc_tensor(R.shape([3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(y, alloc2)
        return (alloc, alloc1, alloc2)
