# PASSES: static-plan-block-memory
# CHECKS: a storage is reused once its tensor is dead (a smaller tensor takes a larger free storage, a larger one enlarges a smaller free storage); other dtypes get their own storage; the output is not planned
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        alloc = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = cls.unary(x, alloc)
        alloc1 = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = cls.unary(alloc, alloc1)
        alloc2 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(alloc1, alloc2)
        alloc3 = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        _3 = cls.unary(alloc2, alloc3)
        alloc4 = R.builtin.alloc_tensor(R.shape([4, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4 = cls.unary(alloc3, alloc4)
        alloc5 = R.builtin.alloc_tensor(R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _5 = cls.unary(alloc4, alloc5)
        alloc6 = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _6 = cls.binary(alloc5, alloc4, alloc6)
        return alloc6

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @T.prim_func(private=True)
    def binary(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"))
        _ = cls.unary(x, alloc)
        storage1 = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1 = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"))
        _1 = cls.unary(alloc, alloc1)
        alloc2 = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        _2 = cls.unary(alloc1, alloc2)
        storage2 = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("int32"))
        alloc3 = R.memory.alloc_tensor(storage2, R.prim_value(0), R.shape([2, 4]), R.dtype("int32"))
        _3 = cls.unary(alloc2, alloc3)
        alloc4 = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"))
        _4 = cls.unary(alloc3, alloc4)
        alloc5 = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([2]), R.dtype("float32"))
        _5 = cls.unary(alloc4, alloc5)
        alloc6 = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _6 = cls.binary(alloc5, alloc4, alloc6)
        return alloc6
