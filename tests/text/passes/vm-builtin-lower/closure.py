# PASSES: vm-builtin-lower
# CHECKS: make_closure and invoke_closure become vm.builtin.make_closure and call_builtin_with_ctx(vm.builtin.invoke_closure)
@I.ir_module
class Before:
    @R.function
    def add(a: R.Tensor((4,), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        c = R.add(a, b)
        return c

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Before
        clo = R.make_closure(cls.add, (x,))
        y = R.invoke_closure(clo, (x,), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y

@I.ir_module
class Expected:
    @R.function
    def add(a: R.Tensor((4,), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        c: R.Tensor((4,), dtype="float32") = R.add(a, b)
        return c

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Expected
        clo: R.Object = R.call_packed("vm.builtin.make_closure", cls.add, x, sinfo_args=(R.Object,))
        y: R.Tensor((4,), dtype="float32") = R.call_builtin_with_ctx("vm.builtin.invoke_closure", (clo, x), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y
