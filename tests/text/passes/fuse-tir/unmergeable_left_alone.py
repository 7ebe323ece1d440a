# PASSES: fuse-tir
# CHECKS: a primitive function whose body calls a high-level operator (no PrimFunc to merge) is left as a function call, while the mergeable one beside it is merged
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

    @R.function(private=True)
    def fused_exp_add(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Before
        with R.dataflow():
            e = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.add(e, e)
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_exp_exp(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Before
        with R.dataflow():
            e = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.exp, (e,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv = cls.fused_exp_add(x)
            gv = cls.fused_exp_exp(lv)
            R.output(gv)
        return gv

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

    @R.function(private=True)
    def fused_exp_add(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            e = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv: R.Tensor((n,), dtype="float32") = R.add(e, e)
            R.output(gv)
        return gv

    @T.prim_func(private=True)
    def fused_exp_exp(p_x: T.handle, p_y_1: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(p_x, (n,))
        y_1 = T.match_buffer(p_y_1, (n,))
        # with T.block("root"):
        y = T.alloc_buffer((n,))
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
                y_1[vi] = T.exp(y[vi])

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            lv: R.Tensor((n,), dtype="float32") = cls.fused_exp_add(x)
            gv = R.call_tir(cls.fused_exp_exp, (lv,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        return gv
