# PASSES: lower-alloc-tensor
# CHECKS: a shape whose values are unknown cannot be sized: an error naming the pass
# ERROR: lower-alloc-tensor: cannot size R.builtin.alloc_tensor
@I.ir_module
class Before:
    @R.function
    def main(s: R.Shape(ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"relax.force_pure": True})
        x = R.builtin.alloc_tensor(s, R.dtype("float32"), R.prim_value(0), R.str("global"))
        return x
