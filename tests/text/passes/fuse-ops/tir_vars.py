# PASSES: fuse-ops
# CHECKS: a size only a call's tir_vars carry (m, the output is m * 2 long) becomes an R.Prim(value=m) parameter of the fused function, passed as R.prim_value(m); injective tile fuses into the elementwise exp after it
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def tile(var_x: T.handle, var_y: T.handle, m: T.int64):
        T.func_attr({"op_pattern": 2, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (m * T.int64(2),))
        for i in range(m * T.int64(2)):
            with T.block("y"):
                vi = T.axis.spatial(m * T.int64(2), i)
                y[vi] = x[vi % n]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        k = T.int64()
        x = T.match_buffer(var_x, (k,))
        y = T.match_buffer(var_y, (k,))
        for i in range(k):
            with T.block("y"):
                vi = T.axis.spatial(k, i)
                y[vi] = T.exp(x[vi])

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["m"])) -> R.Tensor(("m * 2",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.tile, (x,), out_sinfo=R.Tensor((m * 2,), dtype="float32"), tir_vars=R.shape([m]))
            gv = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((m * 2,), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def tile(var_x: T.handle, var_y: T.handle, m: T.int64):
        T.func_attr({"op_pattern": 2, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (m * T.int64(2),))
        # with T.block("root"):
        for i in range(m * T.int64(2)):
            with T.block("y"):
                vi = T.axis.spatial(m * T.int64(2), i)
                T.reads(x[vi % n])
                T.writes(y[vi])
                y[vi] = x[vi % n]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        k = T.int64()
        x = T.match_buffer(var_x, (k,))
        y = T.match_buffer(var_y, (k,))
        # with T.block("root"):
        for i in range(k):
            with T.block("y"):
                vi = T.axis.spatial(k, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = T.exp(x[vi])

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["m"])) -> R.Tensor(("m * 2",), dtype="float32"):
        m = T.int64()
        n = T.int64()
        cls = Expected
        with R.dataflow():
            gv: R.Tensor((m * 2,), dtype="float32") = cls.fused_tile_exp(x, R.prim_value(m))
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_tile_exp(x: R.Tensor(("n",), dtype="float32"), m_1: R.Prim(value="m")) -> R.Tensor(("m * 2",), dtype="float32"):
        m = T.int64()
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv0 = R.call_tir(cls.tile, (x,), out_sinfo=R.Tensor((m * 2,), dtype="float32"), tir_vars=R.shape([m]))
            gv = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((m * 2,), dtype="float32"))
            R.output(gv)
        return gv
