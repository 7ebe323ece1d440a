# PASSES: remove-purity-checking
# CHECKS: R.invoke_pure_closure becomes R.invoke_closure
@I.ir_module
class Before:
    @R.function
    def add(a: R.Tensor((4,), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        c = R.add(a, b)
        return c

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Before
        clo = R.make_closure(cls.add, (x,))
        y = R.invoke_pure_closure(clo, (x,), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y

@I.ir_module
class Expected:
    @R.function
    def add(a: R.Tensor((4,), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        c: R.Tensor((4,), dtype="float32") = R.add(a, b)
        return c

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        clo: R.Callable((R.Tensor((4,), dtype="float32"),), R.Tensor((4,), dtype="float32"), True) = R.make_closure(cls.add, (x,))
        y: R.Tensor((4,), dtype="float32") = R.invoke_closure(clo, (x,), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y
