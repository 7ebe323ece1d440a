# PASSES: kill-after-last-use
# CHECKS: a match_cast variable shares its value's register: it is not killed itself, and the value is killed after the alias's last use
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        a = R.add(x, x)
        y = R.match_cast(a, R.Tensor((m,), dtype="float32"))
        b = R.add(y, y)
        c = R.multiply(b, b)
        return c

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        a: R.Tensor((n,), dtype="float32") = R.add(x, x)
        y: R.Tensor((m,), dtype="float32") = R.match_cast(a, R.Tensor((m,), dtype="float32"))
        b: R.Tensor((m,), dtype="float32") = R.add(y, y)
        R.memory.kill_tensor(a)
        c: R.Tensor((m,), dtype="float32") = R.multiply(b, b)
        R.memory.kill_tensor(b)
        return c
