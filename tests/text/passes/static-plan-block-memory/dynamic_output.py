# PASSES: static-plan-block-memory
# CHECKS: outputs of bounded or constant size (alloc (n <= 32, 4), alloc2 (3,)) go into the arena with or without relax.memory_plan_dynamic_func_output, both alive to the end (disjoint); the attribute (then dropped) gives the allocations that cannot be in the arena a storage of their own of upper-bound size: alloc3, bounded but passed to a graph function, gets a static 256 bytes, the output alloc1, unbounded in m, keeps its symbolic size
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def callee(x: R.Tensor(("k", 2), dtype="float32")) -> R.Tensor(("k", 2), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("m",), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor(("n", 2), dtype="float32")):
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
        alloc3 = R.builtin.alloc_tensor(R.shape([n, 2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(x, alloc3)
        r = cls.callee(alloc3)
        return (alloc, alloc1, alloc2, r)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def callee(x: R.Tensor(("k", 2), dtype="float32")) -> R.Tensor(("k", 2), dtype="float32"):
        k = T.int64()
        return x

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("m",), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor(("n", 2), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 32}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([524]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _: R.Object = cls.unary(x, alloc)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([m]), R.dtype("float32"))
        _1: R.Object = cls.unary(y, alloc1)
        alloc2: R.Tensor((3,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(512), R.shape([3]), R.dtype("float32"))
        _2: R.Object = cls.unary(y, alloc2)
        storage_2: R.Object = R.memory.alloc_storage(R.shape([256]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc3: R.Tensor((n, 2), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([n, 2]), R.dtype("float32"))
        _3: R.Object = cls.unary(x, alloc3)
        r: R.Tensor((n, 2), dtype="float32") = cls.callee(alloc3)
        return (alloc, alloc1, alloc2, r)
