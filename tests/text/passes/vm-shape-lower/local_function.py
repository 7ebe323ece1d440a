# PASSES: vm-shape-lower
# CHECKS: local functions must be lifted out first: an error naming the function
# ERROR: vm-shape-lower: function 'main' contains a local function
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})

        @R.function
        def inner(y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            return y

        z = inner(x)
        return z
