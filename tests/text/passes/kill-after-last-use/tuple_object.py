# PASSES: kill-after-last-use
# CHECKS: a tuple returned by a packed call (an object, not a tensor) is killed with R.vm.kill_object after its last use
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        t = R.call_packed("my_lib.pair", x, sinfo_args=(R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")),))
        b = t[0]
        c = R.add(b, x)
        return c

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = R.call_packed("my_lib.pair", x, sinfo_args=(R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")),))
        b: R.Tensor((4,), dtype="float32") = t[0]
        R.vm.kill_object(t)
        c: R.Tensor((4,), dtype="float32") = R.add(b, x)
        R.memory.kill_tensor(b)
        return c
