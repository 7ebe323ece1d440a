# PASSES: lower-alloc-tensor
# CHECKS: each dtype is sized by its own element size; two allocations get two storages
@I.ir_module
class Before:
    @R.function
    def main() -> R.Tuple(R.Tensor((5,), dtype="int8"), R.Tensor((3, 2), dtype="float16")):
        R.func_attr({"relax.force_pure": True})
        x = R.builtin.alloc_tensor(R.shape([5]), R.dtype("int8"), R.prim_value(0), R.str("global"))
        y = R.builtin.alloc_tensor(R.shape([3, 2]), R.dtype("float16"), R.prim_value(0), R.str("global"))
        return (x, y)

@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tuple(R.Tensor((5,), dtype="int8"), R.Tensor((3, 2), dtype="float16")):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([5]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        x: R.Tensor((5,), dtype="int8") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([5]), R.dtype("int8"))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([12]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        y: R.Tensor((3, 2), dtype="float16") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([3, 2]), R.dtype("float16"))
        return (x, y)
