# PASSES: vm-builtin-lower
# CHECKS: R.reshape and R.shape_of become vm.builtin.reshape / vm.builtin.shape_of with their struct info
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s = R.shape_of(x)
        y = R.reshape(x, R.shape([n * 4]))
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s: R.Shape([n, 4]) = R.call_packed("vm.builtin.shape_of", x, sinfo_args=(R.Shape([n, 4]),))
        y: R.Tensor((n * 4,), dtype="float32") = R.call_packed("vm.builtin.reshape", x, R.shape([n * 4]), sinfo_args=(R.Tensor((n * 4,), dtype="float32"),))
        return y
