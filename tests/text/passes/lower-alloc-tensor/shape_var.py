# PASSES: lower-alloc-tensor
# CHECKS: a shape held in a variable of known Shape struct info is sized from its values
@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        s = R.shape_of(a)
        x = R.builtin.alloc_tensor(s, R.dtype("float32"), R.prim_value(0), R.str("global"))
        return x

@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        s: R.Shape([n, m]) = R.shape_of(a)
        storage: R.Object = R.memory.alloc_storage(R.shape([m * n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        x: R.Tensor((n, m), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), s, R.dtype("float32"))
        return x
