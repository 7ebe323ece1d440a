# PASSES: static-plan-block-memory
# CHECKS: constant-size tensors of every dtype are packed into one arena (uint8: float32 and int32 mixed) at 64-byte-aligned offsets, a tensor taking the bytes of dead ones; the output alloc6 is in the arena too, alive from its allocation to the end, at 64 beside the live alloc4 (read by the same call), and alloc5, alive with both, after them at 128
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
        storage: R.Object = R.memory.alloc_storage(R.shape([136]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        alloc: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"))
        _: R.Object = cls.unary(x, alloc)
        alloc1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(64), R.shape([2, 4]), R.dtype("float32"))
        _1: R.Object = cls.unary(alloc, alloc1)
        alloc2: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        _2: R.Object = cls.unary(alloc1, alloc2)
        alloc3: R.Tensor((2, 4), dtype="int32") = R.memory.alloc_tensor(storage, R.prim_value(64), R.shape([2, 4]), R.dtype("int32"))
        _3: R.Object = cls.unary(alloc2, alloc3)
        alloc4: R.Tensor((4, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"))
        _4: R.Object = cls.unary(alloc3, alloc4)
        alloc5: R.Tensor((2,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(128), R.shape([2]), R.dtype("float32"))
        _5: R.Object = cls.unary(alloc4, alloc5)
        alloc6: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(64), R.shape([2, 4]), R.dtype("float32"))
        _6: R.Object = cls.binary(alloc5, alloc4, alloc6)
        return alloc6
