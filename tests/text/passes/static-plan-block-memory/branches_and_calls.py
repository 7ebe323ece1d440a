# PASSES: static-plan-block-memory
# CHECKS: an If branch is planned on its own (its storage stays inside it); a tensor of the outer block used in a branch is not planned; R.vm.call_tir_dyn and packed calls count as uses and let storage be reused afterwards
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        alloc = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _ = R.vm.call_tir_dyn(cls.unary, (x, alloc, R.shape([8])))
        alloc1 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1 = R.call_packed("my.kernel", alloc, alloc1, sinfo_args=R.Object)
        alloc2 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2 = cls.unary(alloc1, alloc2)
        alloc6 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _6 = cls.unary(alloc2, alloc6)
        if c:
            alloc3 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _3 = cls.unary(alloc2, alloc3)
            alloc4 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _4 = cls.unary(alloc3, alloc4)
            alloc5 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _5 = cls.unary(alloc4, alloc5)
            r = alloc5
        else:
            r = x
        return r

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def unary(var_x: T.handle, var_y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([96]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        R.vm.call_tir_dyn(cls.unary, (x, alloc, R.shape([8])))
        alloc1: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(64), R.shape([8]), R.dtype("float32"))
        _1: R.Object = R.call_packed("my.kernel", alloc, alloc1, sinfo_args=(R.Object,))
        alloc2: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Object = cls.unary(alloc1, alloc2)
        alloc6: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        _6: R.Object = cls.unary(alloc2, alloc6)
        if c:
            storage_1: R.Object = R.memory.alloc_storage(R.shape([96]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            alloc3: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([8]), R.dtype("float32"))
            _3: R.Object = cls.unary(alloc2, alloc3)
            alloc4: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(64), R.shape([8]), R.dtype("float32"))
            _4: R.Object = cls.unary(alloc3, alloc4)
            alloc5: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _5: R.Object = cls.unary(alloc4, alloc5)
            r: R.Tensor((8,), dtype="float32") = alloc5
        else:
            r: R.Tensor((8,), dtype="float32") = x
        return r
