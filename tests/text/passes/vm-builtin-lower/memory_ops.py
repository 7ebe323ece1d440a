# PASSES: vm-builtin-lower
# CHECKS: memory.alloc_storage/alloc_tensor become vm.alloc_storage (uint8)/vm.alloc_tensor, kills become vm.kill_object
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        s = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        y = R.add(x, t)
        _ = R.memory.kill_tensor(t)
        _1 = R.memory.kill_storage(s)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        s: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        t: R.Tensor((4,), dtype="float32") = R.vm.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        y: R.Tensor((4,), dtype="float32") = R.add(x, t)
        R.vm.kill_object(t)
        R.vm.kill_object(s)
        return y
