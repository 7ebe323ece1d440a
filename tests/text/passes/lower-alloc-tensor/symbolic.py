# PASSES: lower-alloc-tensor
# CHECKS: a symbolic shape gives a symbolic byte size (4 bytes * n * 4)
@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        x = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        return x

@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        x: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"))
        return x
