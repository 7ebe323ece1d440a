# PASSES: vm-builtin-lower
# CHECKS: symbolic storage sizes and shapes are carried over unchanged
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        return t

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s: R.Object = R.vm.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        t: R.Tensor((n,), dtype="float32") = R.vm.alloc_tensor(s, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        return t
