# PASSES: fuse-tir
# CHECKS: two symbolic dims (n, m): the same callee (exp) inlined twice gets fresh loop and block variables; the reduction keeps its init; the fused sum writes the output buffer
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        y = T.match_buffer(var_y, (n, m))
        # with T.block("root"):
        for i, j in T.grid(n, m):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.exp(x[vi, vj])

    @T.prim_func(private=True)
    def sum(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 3, "tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i, j in T.grid(n, m):
            with T.block("y"):
                vi, vj = T.axis.remap("SR", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi])
                with T.init():
                    y[vi] = T.float32(0.0)
                y[vi] = y[vi] + x[vi, vj]

    @T.prim_func(private=True)
    def sqrt(var_x: T.handle, var_y: T.handle):
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
                y[vi] = T.sqrt(x[vi])

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Before
        with R.dataflow():
            lv2: R.Tensor((n,), dtype="float32") = cls.fused_exp_exp_sum(x)
            gv = R.call_tir(cls.sqrt, (lv2,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_exp_exp_sum(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n, m), dtype="float32"))
            lv1 = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n, m), dtype="float32"))
            lv2 = R.call_tir(cls.sum, (lv1,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(lv2)
        return lv2

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def sqrt(var_x: T.handle, var_y: T.handle):
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
                y[vi] = T.sqrt(x[vi])

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        with R.dataflow():
            lv2 = R.call_tir(cls.fused_exp_exp_sum, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.sqrt, (lv2,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        return gv

    @T.prim_func(private=True)
    def fused_exp_exp_sum(p_x: T.handle, p_y_2: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(p_x, (n, m))
        y_2 = T.match_buffer(p_y_2, (n,))
        # with T.block("root"):
        y = T.alloc_buffer((n, m))
        y_1 = T.alloc_buffer((n, m))
        for i, j in T.grid(n, m):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.exp(x[vi, vj])
        for i, j in T.grid(n, m):
            with T.block("y_1"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(y[vi, vj])
                T.writes(y_1[vi, vj])
                y_1[vi, vj] = T.exp(y[vi, vj])
        for i, j in T.grid(n, m):
            with T.block("y_2"):
                vi, vj = T.axis.remap("SR", [i, j])
                T.reads(y_1[vi, vj])
                T.writes(y_2[vi])
                with T.init():
                    y_2[vi] = T.float32(0.0)
                y_2[vi] = y_2[vi] + y_1[vi, vj]
