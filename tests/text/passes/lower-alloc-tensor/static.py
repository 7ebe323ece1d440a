# PASSES: lower-alloc-tensor
# CHECKS: a static alloc_tensor gets a uint8 storage of its byte size and a tensor at offset 0 in it
@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        x = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        return x

@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        x: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"))
        return x
