# PASSES: kill-after-last-use
# CHECKS: an object already killed is not killed again; constants, shapes and unused values are not killed
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        c = R.const(1, "float32")
        s = R.shape([4])
        a = R.add(x, c)
        unused = R.multiply(x, x)
        b = R.add(a, a)
        _ = R.memory.kill_tensor(a)
        r = R.reshape(b, s)
        return r

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        c: R.Tensor((), dtype="float32") = R.const(1.0, "float32")
        s: R.Shape([4]) = R.shape([4])
        a: R.Tensor((4,), dtype="float32") = R.add(x, R.const(1.0, "float32"))
        unused: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
        b: R.Tensor((4,), dtype="float32") = R.add(a, a)
        R.memory.kill_tensor(a)
        r: R.Tensor((4,), dtype="float32") = R.reshape(b, s)
        R.memory.kill_tensor(b)
        return r
