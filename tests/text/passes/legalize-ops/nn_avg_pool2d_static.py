# PASSES: legalize-ops
# CHECKS: avg_pool2d counting only in-bounds elements (count_include_pad=False)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float32")):
        gv = R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float32")) -> R.Tensor((1, 2, 3, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.avg_pool2d, (x,), out_sinfo=R.Tensor((1, 2, 3, 3), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def avg_pool2d(x: T.Buffer((T.int64(1), T.int64(2), T.int64(5), T.int64(5)), "float32"), pool_avg: T.Buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        pool_count = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(3)), "int64")
        pool_sum = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(3)))
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(T.int64(1), T.int64(2), T.int64(3), T.int64(3), T.int64(3), T.int64(3)):
            with T.block("pool_count"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads()
                T.writes(pool_count[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    pool_count[v_ax0, v_ax1, v_ax2, v_ax3] = T.int64(0)
                pool_count[v_ax0, v_ax1, v_ax2, v_ax3] = pool_count[v_ax0, v_ax1, v_ax2, v_ax3] + T.Select(v_ax2 * T.int64(2) + v_rh - T.int64(1) >= T.int64(0) and v_ax2 * T.int64(2) + v_rh - T.int64(1) < T.int64(5) and (v_ax3 * T.int64(2) + v_rw - T.int64(1) >= T.int64(0) and v_ax3 * T.int64(2) + v_rw - T.int64(1) < T.int64(5)), T.int64(1), T.int64(0))
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(T.int64(1), T.int64(2), T.int64(3), T.int64(3), T.int64(3), T.int64(3)):
            with T.block("pool_sum"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rh - T.int64(1), v_ax3 * T.int64(2) + v_rw - T.int64(1)])
                T.writes(pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 * T.int64(2) + v_rh - T.int64(1) >= T.int64(0) and v_ax2 * T.int64(2) + v_rh - T.int64(1) < T.int64(5) and (v_ax3 * T.int64(2) + v_rw - T.int64(1) >= T.int64(0) and v_ax3 * T.int64(2) + v_rw - T.int64(1) < T.int64(5)), x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rh - T.int64(1), v_ax3 * T.int64(2) + v_rw - T.int64(1)], T.float32(0.0))
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), T.int64(3), T.int64(3)):
            with T.block("pool_avg"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(pool_sum[v_ax0, v_ax1, v_ax2, v_ax3], pool_count[v_ax0, v_ax1, v_ax2, v_ax3])
                T.writes(pool_avg[v_ax0, v_ax1, v_ax2, v_ax3])
                pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / T.Cast("float32", T.max(pool_count[v_ax0, v_ax1, v_ax2, v_ax3], T.int64(1)))
