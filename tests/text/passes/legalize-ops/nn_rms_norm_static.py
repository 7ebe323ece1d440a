# PASSES: legalize-ops
# CHECKS: rms_norm: x * rsqrt(mean(x * x) + eps) * weight
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((3, 8), dtype="float32"), w: R.Tensor((8,), dtype="float32")):
        gv = R.nn.rms_norm(x, w, axes=[-1], epsilon=1e-06)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((3, 8), dtype="float32"), w: R.Tensor((8,), dtype="float32")) -> R.Tensor((3, 8), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.rms_norm, (x, w), out_sinfo=R.Tensor((3, 8), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def rms_norm(x: T.Buffer((T.int64(3), T.int64(8)), "float32"), w: T.Buffer((T.int64(8),), "float32"), rms_norm: T.Buffer((T.int64(3), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        rms_norm_mean_square_sum = T.alloc_buffer((T.int64(3),))
        rms_norm_mean_square = T.alloc_buffer((T.int64(3),))
        for ax0, k0 in T.grid(T.int64(3), T.int64(8)):
            with T.block("rms_norm_mean_square_sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0])
                T.writes(rms_norm_mean_square_sum[v_ax0])
                with T.init():
                    rms_norm_mean_square_sum[v_ax0] = T.float32(0.0)
                rms_norm_mean_square_sum[v_ax0] = rms_norm_mean_square_sum[v_ax0] + x[v_ax0, v_k0] * x[v_ax0, v_k0]
        for ax0 in range(T.int64(3)):
            with T.block("rms_norm_mean_square"):
                v_ax0 = T.axis.spatial(T.int64(3), ax0)
                T.reads(rms_norm_mean_square_sum[v_ax0])
                T.writes(rms_norm_mean_square[v_ax0])
                rms_norm_mean_square[v_ax0] = rms_norm_mean_square_sum[v_ax0] / T.float32(8.0)
        for ax0, ax1 in T.grid(T.int64(3), T.int64(8)):
            with T.block("rms_norm"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], rms_norm_mean_square[v_ax0], w[v_ax1])
                T.writes(rms_norm[v_ax0, v_ax1])
                rms_norm[v_ax0, v_ax1] = x[v_ax0, v_ax1] * T.rsqrt(rms_norm_mean_square[v_ax0] + T.float32(1e-06)) * w[v_ax1]
