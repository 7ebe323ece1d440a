# PASSES: fuse-tir
# CHECKS: a primitive function returning a tuple (an intermediate used outside the group, as fuse-ops produces for several outputs) becomes a PrimFunc with two output buffers and a tuple out_sinfo; the function called at two sites with different symbolic shapes is merged once, each call getting its own out_sinfo
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                y[vi] = T.exp(x[vi])

    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                y[vi] = T.max(x[vi], T.float32(0))

    @R.function(private=True)
    def fused_exp_relu(x: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Before
        with R.dataflow():
            e = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            r = R.call_tir(cls.relu, (e,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = (e, r)
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor(("a",), dtype="float32"), y: R.Tensor(("b",), dtype="float32")) -> R.Tuple(R.Tensor(("a",), dtype="float32"), R.Tensor(("b",), dtype="float32")):
        a = T.int64()
        b = T.int64()
        cls = Before
        with R.dataflow():
            t0 = cls.fused_exp_relu(x)
            e0 = t0[0]
            r0 = t0[1]
            t1 = cls.fused_exp_relu(y)
            r1 = t1[1]
            gv = R.call_tir(cls.exp, (e0,), out_sinfo=R.Tensor((a,), dtype="float32"))
            R.output(r0, r1, gv)
        return (gv, r1)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = T.exp(x[vi])

    @T.prim_func(private=True)
    def fused_exp_relu(p_x: T.handle, p_y: T.handle, p_y_1: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(p_x, (n,))
        y = T.match_buffer(p_y, (n,))
        y_1 = T.match_buffer(p_y_1, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = T.exp(x[vi])
        for i in range(n):
            with T.block("y_1"):
                vi = T.axis.spatial(n, i)
                T.reads(y[vi])
                T.writes(y_1[vi])
                y_1[vi] = T.max(y[vi], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("a",), dtype="float32"), y: R.Tensor(("b",), dtype="float32")) -> R.Tuple(R.Tensor(("a",), dtype="float32"), R.Tensor(("b",), dtype="float32")):
        a = T.int64()
        b = T.int64()
        cls = Expected
        with R.dataflow():
            t0 = R.call_tir(cls.fused_exp_relu, (x,), out_sinfo=[R.Tensor((a,), dtype="float32"), R.Tensor((a,), dtype="float32")])
            e0: R.Tensor((a,), dtype="float32") = t0[0]
            r0: R.Tensor((a,), dtype="float32") = t0[1]
            t1 = R.call_tir(cls.fused_exp_relu, (y,), out_sinfo=[R.Tensor((b,), dtype="float32"), R.Tensor((b,), dtype="float32")])
            r1: R.Tensor((b,), dtype="float32") = t1[1]
            gv = R.call_tir(cls.exp, (e0,), out_sinfo=R.Tensor((a,), dtype="float32"))
            R.output(r0, r1, gv)
        return (gv, r1)
