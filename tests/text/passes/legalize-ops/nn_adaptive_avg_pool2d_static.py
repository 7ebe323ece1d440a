# PASSES: legalize-ops
# CHECKS: adaptive_avg_pool2d to 3x2 windows of varying size
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 7, 5), dtype="float32")):
        gv = R.nn.adaptive_avg_pool2d(x, output_size=[3, 2])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 7, 5), dtype="float32")) -> R.Tensor((1, 2, 3, 2), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.adaptive_avg_pool2d, (x,), out_sinfo=R.Tensor((1, 2, 3, 2), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def adaptive_avg_pool2d(x: T.Buffer((T.int64(1), T.int64(2), T.int64(7), T.int64(5)), "float32"), adaptive_pool_avg: T.Buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        adaptive_pool_sum = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(2)))
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(T.int64(1), T.int64(2), T.int64(3), T.int64(2), T.int64(4), T.int64(4)):
            with T.block("adaptive_pool_sum"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 * T.int64(7) // T.int64(3) + v_rh, v_ax3 * T.int64(5) // T.int64(2) + v_rw])
                T.writes(adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_rh < T.int64(3) and v_rw < T.int64(3), x[v_ax0, v_ax1, v_ax2 * T.int64(7) // T.int64(3) + v_rh, v_ax3 * T.int64(5) // T.int64(2) + v_rw], T.float32(0.0))
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), T.int64(3), T.int64(2)):
            with T.block("adaptive_pool_avg"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                T.writes(adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3])
                adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / T.float32(9.0)
