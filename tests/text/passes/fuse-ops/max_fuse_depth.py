# PASSES: fuse-ops{max-fuse-depth=2}
# CHECKS: max_fuse_depth bounds the group size: a chain of four elementwise ops becomes two fused pairs; a tensor constant argument becomes a parameter (p0) of its fused function and is passed at the call
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def add(var_x: T.handle, y: T.Buffer((), "float32"), var_z: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        z = T.match_buffer(var_z, (n,))
        for i in range(n):
            with T.block("z"):
                vi = T.axis.spatial(n, i)
                z[vi] = x[vi] + y[()]

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

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, R.const(1.0, "float32")), out_sinfo=R.Tensor((n,), dtype="float32"))
            lv1 = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n,), dtype="float32"))
            lv2 = R.call_tir(cls.exp, (lv1,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.add, (lv2, R.const(2.0, "float32")), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(var_x: T.handle, y: T.Buffer((), "float32"), var_z: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        z = T.match_buffer(var_z, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("z"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi], y[()])
                T.writes(z[vi])
                z[vi] = x[vi] + y[()]

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

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            lv1: R.Tensor((n,), dtype="float32") = cls.fused_add_exp(x, R.const(1.0, "float32"))
            gv: R.Tensor((n,), dtype="float32") = cls.fused_exp_add(lv1, R.const(2.0, "float32"))
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_add_exp(x: R.Tensor(("n",), dtype="float32"), p0: R.Tensor((), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, p0), out_sinfo=R.Tensor((n,), dtype="float32"))
            lv1 = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(lv1)
        return lv1

    @R.function(private=True)
    def fused_exp_add(lv1: R.Tensor(("n",), dtype="float32"), p0: R.Tensor((), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv2 = R.call_tir(cls.exp, (lv1,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.add, (lv2, p0), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        return gv
