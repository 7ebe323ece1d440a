# PASSES: kill-after-last-use
# CHECKS: parameters are never killed; an intermediate result of a graph op is killed after its last use
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        z = R.multiply(y, x)
        w = R.add(z, x)
        return w

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        z: R.Tensor((4,), dtype="float32") = R.multiply(y, x)
        R.memory.kill_tensor(y)
        w: R.Tensor((4,), dtype="float32") = R.add(z, x)
        R.memory.kill_tensor(z)
        return w
