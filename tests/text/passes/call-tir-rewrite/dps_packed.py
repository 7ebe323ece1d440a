# PASSES: call-tir-rewrite
# CHECKS: call_dps_packed calls its extern function with the allocated output appended
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        y = R.call_dps_packed("my_lib.relu", (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        alloc: R.Tensor((n, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Object = R.call_packed("my_lib.relu", x, alloc)
        y: R.Tensor((n, 4), dtype="float32") = alloc
        return y
