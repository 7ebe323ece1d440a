# PASSES: legalize-ops
# CHECKS: cumsum along axis 1 as a bounded reduction
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 5), dtype="float32")):
        gv = R.cumsum(x, axis=1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 5), dtype="float32")) -> R.Tensor((2, 5), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.cumsum, (x,), out_sinfo=R.Tensor((2, 5), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def cumsum(x: T.Buffer((T.int64(2), T.int64(5)), "float32"), cumsum: T.Buffer((T.int64(2), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, k in T.grid(T.int64(2), T.int64(5), T.int64(5)):
            with T.block("cumsum"):
                v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
                T.reads(x[v_ax0, v_k])
                T.writes(cumsum[v_ax0, v_ax1])
                with T.init():
                    cumsum[v_ax0, v_ax1] = T.float32(0.0)
                if v_k <= v_ax1:
                    cumsum[v_ax0, v_ax1] = cumsum[v_ax0, v_ax1] + x[v_ax0, v_k]
