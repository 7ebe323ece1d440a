# PASSES: kill-after-last-use
# CHECKS: a value last used inside an If is killed after the If; values of a branch are killed inside it
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a = R.add(x, x)
        if c:
            b = R.multiply(a, a)
            d = R.add(b, x)
            r = d
        else:
            r = x
        e = R.add(r, x)
        return e

@I.ir_module
class Expected:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a: R.Tensor((4,), dtype="float32") = R.add(x, x)
        if c:
            b: R.Tensor((4,), dtype="float32") = R.multiply(a, a)
            d: R.Tensor((4,), dtype="float32") = R.add(b, x)
            R.memory.kill_tensor(b)
            r: R.Tensor((4,), dtype="float32") = d
        else:
            r: R.Tensor((4,), dtype="float32") = x
        R.memory.kill_tensor(a)
        e: R.Tensor((4,), dtype="float32") = R.add(r, x)
        R.memory.kill_tensor(r)
        return e
