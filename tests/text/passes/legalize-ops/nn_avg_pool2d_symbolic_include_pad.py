# PASSES: legalize-ops
# CHECKS: avg_pool2d with count_include_pad on symbolic sizes
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")):
        gv = R.nn.avg_pool2d(x, pool_size=[2, 2], strides=[1, 1], padding=[1, 1, 1, 1], count_include_pad=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h + 1", "w + 1"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        cls = Expected
        gv = R.call_tir(cls.avg_pool2d, (x,), out_sinfo=R.Tensor((n, 2, h + 1, w + 1), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def avg_pool2d(var_x: T.handle, var_pool_avg: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, h, w = T.int64(), T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, T.int64(2), h, w))
        pool_avg = T.match_buffer(var_pool_avg, (n, T.int64(2), h + T.int64(1), w + T.int64(1)))
        # with T.block("root"):
        pool_sum = T.alloc_buffer((n, T.int64(2), h + T.int64(1), w + T.int64(1)))
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(n, T.int64(2), h + T.int64(1), w + T.int64(1), T.int64(2), T.int64(2)):
            with T.block("pool_sum"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 + v_rh - T.int64(1), v_ax3 + v_rw - T.int64(1)])
                T.writes(pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 + v_rh - T.int64(1) >= T.int64(0) and v_ax2 + v_rh - T.int64(1) < h and (v_ax3 + v_rw - T.int64(1) >= T.int64(0) and v_ax3 + v_rw - T.int64(1) < w), x[v_ax0, v_ax1, v_ax2 + v_rh - T.int64(1), v_ax3 + v_rw - T.int64(1)], T.float32(0.0))
        for ax0, ax1, ax2, ax3 in T.grid(n, T.int64(2), h + T.int64(1), w + T.int64(1)):
            with T.block("pool_avg"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                T.writes(pool_avg[v_ax0, v_ax1, v_ax2, v_ax3])
                pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / T.Cast("float32", T.min(v_ax2, h) * T.int64(2) + T.min(v_ax3, w) * T.int64(2) + v_ax2 * v_ax3 + T.min(v_ax2, h) * T.min(v_ax3, w) - v_ax2 * T.min(v_ax3, w) - v_ax3 * T.min(v_ax2, h) - v_ax2 * T.int64(2) - v_ax3 * T.int64(2) + T.int64(4))
