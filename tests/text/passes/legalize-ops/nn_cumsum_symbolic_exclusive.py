# PASSES: legalize-ops
# CHECKS: exclusive cumsum of the flattened symbolic tensor into int64
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="int32")):
        gv = R.cumsum(x, dtype="int64", exclusive=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="int32")) -> R.Tensor(("n * 3",), dtype="int64"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.cumsum, (x,), out_sinfo=R.Tensor((n * 3,), dtype="int64"))
        return gv

    @T.prim_func(private=True)
    def cumsum(var_x: T.handle, var_cumsum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)), "int32")
        cumsum = T.match_buffer(var_cumsum, (n * T.int64(3),), "int64")
        # with T.block("root"):
        for ax0, k in T.grid(n * T.int64(3), n * T.int64(3)):
            with T.block("cumsum"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(x[v_k // T.int64(3), v_k % T.int64(3)])
                T.writes(cumsum[v_ax0])
                with T.init():
                    cumsum[v_ax0] = T.int64(0)
                if v_k < v_ax0:
                    cumsum[v_ax0] = cumsum[v_ax0] + T.Cast("int64", x[v_k // T.int64(3), v_k % T.int64(3)])
