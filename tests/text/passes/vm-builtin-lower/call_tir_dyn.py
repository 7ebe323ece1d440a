# PASSES: vm-builtin-lower
# CHECKS: R.vm.call_tir_dyn becomes the builtin vm.builtin.call_tir_dyn with the callee and the flattened arguments
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def copy(var_x: T.handle, var_y: T.handle, n: T.int64):
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("copy"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi]

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Before
        _ = R.vm.call_tir_dyn(cls.copy, (x, y, R.shape([n])))
        return y

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def copy(var_x: T.handle, var_y: T.handle, n: T.int64):
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("copy"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = x[vi]

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        R.call_packed("vm.builtin.call_tir_dyn", cls.copy, x, y, R.shape([n]), sinfo_args=(R.Tuple,))
        return y
