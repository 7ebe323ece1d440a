# PASSES: kill-after-last-use
# CHECKS: an alias `b = a` is removed first, so the kill follows the real last use and the returned alias is kept alive
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a = R.add(x, x)
        b = a
        c = R.multiply(b, x)
        d = R.add(c, c)
        e = d
        return e

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a: R.Tensor((4,), dtype="float32") = R.add(x, x)
        c: R.Tensor((4,), dtype="float32") = R.multiply(a, x)
        R.memory.kill_tensor(a)
        d: R.Tensor((4,), dtype="float32") = R.add(c, c)
        R.memory.kill_tensor(c)
        return d
