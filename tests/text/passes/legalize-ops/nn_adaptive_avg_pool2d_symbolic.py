# PASSES: legalize-ops
# CHECKS: global average pooling of a symbolic image (output 1x1)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32")):
        gv = R.nn.adaptive_avg_pool2d(x, output_size=[1])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32")) -> R.Tensor(("n", 3, 1, 1), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        cls = Expected
        gv = R.call_tir(cls.adaptive_avg_pool2d, (x,), out_sinfo=R.Tensor((n, 3, 1, 1), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def adaptive_avg_pool2d(var_x: T.handle, var_adaptive_pool_avg: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, h, w = T.int64(), T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), h, w))
        adaptive_pool_avg = T.match_buffer(var_adaptive_pool_avg, (n, T.int64(3), T.int64(1), T.int64(1)))
        # with T.block("root"):
        adaptive_pool_sum = T.alloc_buffer((n, T.int64(3), T.int64(1), T.int64(1)))
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(n, T.int64(3), T.int64(1), T.int64(1), h, w):
            with T.block("adaptive_pool_sum"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 * h + v_rh, v_ax3 * w + v_rw])
                T.writes(adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] + x[v_ax0, v_ax1, v_ax2 * h + v_rh, v_ax3 * w + v_rw]
        for ax0, ax1, ax2, ax3 in T.grid(n, T.int64(3), T.int64(1), T.int64(1)):
            with T.block("adaptive_pool_avg"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                T.writes(adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3])
                adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / T.Cast("float32", h * w)
