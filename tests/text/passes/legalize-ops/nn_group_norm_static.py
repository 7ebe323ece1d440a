# PASSES: legalize-ops
# CHECKS: group_norm with 3 groups of 2 channels
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 6, 3, 3), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32")):
        gv = R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2, 3])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 6, 3, 3), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 3, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.group_norm, (x, g, b), out_sinfo=R.Tensor((2, 6, 3, 3), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def group_norm(x: T.Buffer((T.int64(2), T.int64(6), T.int64(3), T.int64(3)), "float32"), g: T.Buffer((T.int64(6),), "float32"), b: T.Buffer((T.int64(6),), "float32"), group_norm: T.Buffer((T.int64(2), T.int64(6), T.int64(3), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        group_norm_sum = T.alloc_buffer((T.int64(2), T.int64(3)))
        group_norm_mean = T.alloc_buffer((T.int64(2), T.int64(3)))
        group_norm_sq_sum = T.alloc_buffer((T.int64(2), T.int64(3)))
        for ax0, ax1, rc, k0, k1 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(3), T.int64(3)):
            with T.block("group_norm_sum"):
                v_ax0, v_ax1, v_rc, v_k0, v_k1 = T.axis.remap("SSRRR", [ax0, ax1, rc, k0, k1])
                T.reads(x[v_ax0, v_ax1 * T.int64(2) + v_rc, v_k0, v_k1])
                T.writes(group_norm_sum[v_ax0, v_ax1])
                with T.init():
                    group_norm_sum[v_ax0, v_ax1] = T.float32(0.0)
                group_norm_sum[v_ax0, v_ax1] = group_norm_sum[v_ax0, v_ax1] + x[v_ax0, v_ax1 * T.int64(2) + v_rc, v_k0, v_k1]
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("group_norm_mean"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(group_norm_sum[v_ax0, v_ax1])
                T.writes(group_norm_mean[v_ax0, v_ax1])
                group_norm_mean[v_ax0, v_ax1] = group_norm_sum[v_ax0, v_ax1] / T.float32(18.0)
        for ax0, ax1, rc, k0, k1 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(3), T.int64(3)):
            with T.block("group_norm_sq_sum"):
                v_ax0, v_ax1, v_rc, v_k0, v_k1 = T.axis.remap("SSRRR", [ax0, ax1, rc, k0, k1])
                T.reads(x[v_ax0, v_ax1 * T.int64(2) + v_rc, v_k0, v_k1], group_norm_mean[v_ax0, v_ax1])
                T.writes(group_norm_sq_sum[v_ax0, v_ax1])
                with T.init():
                    group_norm_sq_sum[v_ax0, v_ax1] = T.float32(0.0)
                group_norm_sq_sum[v_ax0, v_ax1] = group_norm_sq_sum[v_ax0, v_ax1] + (x[v_ax0, v_ax1 * T.int64(2) + v_rc, v_k0, v_k1] - group_norm_mean[v_ax0, v_ax1]) * (x[v_ax0, v_ax1 * T.int64(2) + v_rc, v_k0, v_k1] - group_norm_mean[v_ax0, v_ax1])
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(2), T.int64(6), T.int64(3), T.int64(3)):
            with T.block("group_norm"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax0, v_ax1, v_ax2, v_ax3], group_norm_mean[v_ax0, v_ax1 // T.int64(2)], group_norm_sq_sum[v_ax0, v_ax1 // T.int64(2)], g[v_ax1], b[v_ax1])
                T.writes(group_norm[v_ax0, v_ax1, v_ax2, v_ax3])
                group_norm[v_ax0, v_ax1, v_ax2, v_ax3] = (x[v_ax0, v_ax1, v_ax2, v_ax3] - group_norm_mean[v_ax0, v_ax1 // T.int64(2)]) * T.rsqrt(group_norm_sq_sum[v_ax0, v_ax1 // T.int64(2)] / T.float32(18.0) + T.float32(1e-05)) * g[v_ax1] + b[v_ax1]
