# PASSES: call-tir-rewrite
# CHECKS: calls inside If branches are rewritten in their branch
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def exp(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        for i, j in T.grid(T.int64(2), T.int64(3)):
            with T.block("exp"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.exp(x[vi, vj])

    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        if c:
            y = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            r = y
        else:
            r = x
        return r

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def exp(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        # with T.block("root"):
        for i, j in T.grid(T.int64(2), T.int64(3)):
            with T.block("exp"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.exp(x[vi, vj])

    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        if c:
            alloc: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            _: R.Object = cls.exp(x, alloc)
            y: R.Tensor((2, 3), dtype="float32") = alloc
            r: R.Tensor((2, 3), dtype="float32") = y
        else:
            r: R.Tensor((2, 3), dtype="float32") = x
        return r
