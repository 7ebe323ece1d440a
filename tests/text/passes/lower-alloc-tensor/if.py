# PASSES: lower-alloc-tensor
# CHECKS: allocations inside If branches get their storage in the branch
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        if c:
            x = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            r = x
        else:
            y = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            r = y
        return r

@I.ir_module
class Expected:
    @R.function
    def main(c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        if c:
            storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
            x: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
            r: R.Tensor((4,), dtype="float32") = x
        else:
            storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
            y: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
            r: R.Tensor((4,), dtype="float32") = y
        return r
