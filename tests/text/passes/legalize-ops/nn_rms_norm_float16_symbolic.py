# PASSES: legalize-ops
# CHECKS: float16 rms_norm accumulates in float32 and casts back; symbolic rows
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float16"), w: R.Tensor((8,), dtype="float16")):
        gv = R.nn.rms_norm(x, w)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float16"), w: R.Tensor((8,), dtype="float16")) -> R.Tensor(("n", 8), dtype="float16"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.rms_norm, (x, w), out_sinfo=R.Tensor((n, 8), dtype="float16"))
        return gv

    @T.prim_func(private=True)
    def rms_norm(var_x: T.handle, w: T.Buffer((T.int64(8),), "float16"), var_rms_norm: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)), "float16")
        rms_norm = T.match_buffer(var_rms_norm, (n, T.int64(8)), "float16")
        # with T.block("root"):
        rms_norm_mean_square_sum = T.alloc_buffer((n,))
        rms_norm_mean_square = T.alloc_buffer((n,))
        for ax0, k0 in T.grid(n, T.int64(8)):
            with T.block("rms_norm_mean_square_sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0])
                T.writes(rms_norm_mean_square_sum[v_ax0])
                with T.init():
                    rms_norm_mean_square_sum[v_ax0] = T.float32(0.0)
                rms_norm_mean_square_sum[v_ax0] = rms_norm_mean_square_sum[v_ax0] + T.Cast("float32", x[v_ax0, v_k0]) * T.Cast("float32", x[v_ax0, v_k0])
        for ax0 in range(n):
            with T.block("rms_norm_mean_square"):
                v_ax0 = T.axis.spatial(n, ax0)
                T.reads(rms_norm_mean_square_sum[v_ax0])
                T.writes(rms_norm_mean_square[v_ax0])
                rms_norm_mean_square[v_ax0] = rms_norm_mean_square_sum[v_ax0] / T.float32(8.0)
        for ax0, ax1 in T.grid(n, T.int64(8)):
            with T.block("rms_norm"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], rms_norm_mean_square[v_ax0], w[v_ax1])
                T.writes(rms_norm[v_ax0, v_ax1])
                rms_norm[v_ax0, v_ax1] = T.Cast("float16", T.Cast("float32", x[v_ax0, v_ax1]) * T.rsqrt(rms_norm_mean_square[v_ax0] + T.float32(1e-05)) * T.Cast("float32", w[v_ax1]))
