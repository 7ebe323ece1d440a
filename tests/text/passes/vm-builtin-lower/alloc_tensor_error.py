# PASSES: vm-builtin-lower
# CHECKS: an R.builtin.alloc_tensor left unlowered is an error that names lower-alloc-tensor
# ERROR: must be lowered by lower-alloc-tensor
@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        x = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        return x
