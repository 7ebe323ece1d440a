# PASSES: call-tir-rewrite
# CHECKS: with tir_vars the call goes through R.vm.call_tir_dyn, the shape after the outputs (TVM unpack semantics)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def fill(var_y: T.handle, m: T.int64):
        y = T.match_buffer(var_y, (m,), "int64")
        for i in range(m):
            with T.block("fill"):
                vi = T.axis.spatial(m, i)
                y[vi] = m

    @R.function
    def main(x: R.Tensor(("m",), dtype="int64")) -> R.Tensor(("m",), dtype="int64"):
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Before
        y = R.call_tir(cls.fill, (), out_sinfo=R.Tensor((m,), dtype="int64"), tir_vars=R.shape([m]))
        return y

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def fill(var_y: T.handle, m: T.int64):
        y = T.match_buffer(var_y, (m,), "int64")
        # with T.block("root"):
        for i in range(m):
            with T.block("fill"):
                vi = T.axis.spatial(m, i)
                T.reads()
                T.writes(y[vi])
                y[vi] = m

    @R.function
    def main(x: R.Tensor(("m",), dtype="int64")) -> R.Tensor(("m",), dtype="int64"):
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        alloc: R.Tensor((m,), dtype="int64") = R.builtin.alloc_tensor(R.shape([m]), R.dtype("int64"), R.prim_value(0), R.str("global"))
        R.vm.call_tir_dyn(cls.fill, (alloc, R.shape([m])))
        y: R.Tensor((m,), dtype="int64") = alloc
        return y
