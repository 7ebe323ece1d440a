# PASSES: static-plan-block-memory
# CHECKS: tensors that may escape are not planned: passed to a graph function, used by an If, renamed by a match_cast; a tensor viewed by R.reshape keeps its bytes until the view's last use; alloc6, returned in a tuple beside a graph function's result, is a function output: in the arena, at 64 beside alloc5 which its writer reads
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def callee(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        alloc = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, alloc)
        r = cls.callee(alloc)
        alloc1 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(x, alloc1)
        if c:
            t = alloc1
        else:
            t = x
        alloc2 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(x, alloc2)
        m = R.match_cast(alloc2, R.Tensor((4,), dtype="float32"))
        alloc3 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(x, alloc3)
        v = R.reshape(alloc3, R.shape([2, 2]))
        alloc4 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4 = cls.unary(v, alloc4)
        alloc5 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _5 = cls.unary(alloc4, alloc5)
        alloc6 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _6 = cls.unary(alloc5, alloc6)
        return (alloc6, r)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def callee(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        alloc: R.Tensor((4,), dtype="float32") = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Object = cls.unary(x, alloc)
        r: R.Tensor((4,), dtype="float32") = cls.callee(alloc)
        alloc1: R.Tensor((4,), dtype="float32") = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Object = cls.unary(x, alloc1)
        if c:
            t: R.Tensor((4,), dtype="float32") = alloc1
        else:
            t: R.Tensor((4,), dtype="float32") = x
        alloc2: R.Tensor((4,), dtype="float32") = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Object = cls.unary(x, alloc2)
        m: R.Tensor((4,), dtype="float32") = R.match_cast(alloc2, R.Tensor((4,), dtype="float32"))
        storage: R.Object = R.memory.alloc_storage(R.shape([80]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc3: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        _3: R.Object = cls.unary(x, alloc3)
        v: R.Tensor((2, 2), dtype="float32") = R.reshape(alloc3, R.shape([2, 2]))
        alloc4: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(64), R.shape([4]), R.dtype("float32"))
        _4: R.Object = cls.unary(v, alloc4)
        alloc5: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        _5: R.Object = cls.unary(alloc4, alloc5)
        alloc6: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(64), R.shape([4]), R.dtype("float32"))
        _6: R.Object = cls.unary(alloc5, alloc6)
        return (alloc6, r)
