# PASSES: normalize
# CHECKS: a module holding a graph function, a PrimFunc and a library call is left as it is; PrimFuncs are not touched
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.max(x[vi, vj], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.call_tir(cls.relu, (lv0,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_dps_packed("my_lib.rms_norm", (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.max(x[vi, vj], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.call_tir(cls.relu, (lv0,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_dps_packed("my_lib.rms_norm", (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv
