# PASSES: call-tir-rewrite
# CHECKS: a symbolic output shape is allocated with its symbolic dimensions
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def add_one(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Before
        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
        z = R.call_tir(cls.add_one, (y,), out_sinfo=R.Tensor((n,), dtype="float32"))
        return z

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add_one(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = x[vi] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        alloc: R.Tensor((n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Object = cls.add_one(x, alloc)
        y: R.Tensor((n,), dtype="float32") = alloc
        alloc_1: R.Tensor((n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        __1: R.Object = cls.add_one(y, alloc_1)
        z: R.Tensor((n,), dtype="float32") = alloc_1
        return z
