# PASSES: static-plan-block-memory
# CHECKS: with bounds, a tensor returned by an If branch (r2 in the true branch, then the function's output through r) keeps its own allocation, unchanged; the branch's intermediate is planned in the branch's own arena, and the output o of the enclosing block, returned beside r, goes into the outer arena
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, a)
        o = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(a, o)
        if c:
            r1 = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _2 = cls.unary(x, r1)
            r2 = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _3 = cls.unary(r1, r2)
            r = r2
        else:
            r = x
        return (o, r)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([256]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        _: R.Object = cls.unary(x, a)
        o: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(128), R.shape([n, 4]), R.dtype("float32"))
        _1: R.Object = cls.unary(a, o)
        if c:
            storage_1: R.Object = R.memory.alloc_storage(R.shape([128]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            r1: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
            _2: R.Object = cls.unary(x, r1)
            r2: R.Tensor((n, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _3: R.Object = cls.unary(r1, r2)
            r: R.Tensor((n, 4), dtype="float32") = r2
        else:
            r: R.Tensor((n, 4), dtype="float32") = x
        return (o, r)
