# PASSES: legalize-ops
# CHECKS: max_pool2d with ceil_mode on a symbolic height
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", 6), dtype="float32")):
        gv = R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2], ceil_mode=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", 6), dtype="float32")) -> R.Tensor((1, 2, "(h + 1) // 2", 3), dtype="float32"):
        h = T.int64()
        cls = Expected
        gv = R.call_tir(cls.max_pool2d, (x,), out_sinfo=R.Tensor((1, 2, (h + 1) // 2, 3), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def max_pool2d(var_x: T.handle, var_pool_max: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        h = T.int64()
        x = T.match_buffer(var_x, (T.int64(1), T.int64(2), h, T.int64(6)))
        pool_max = T.match_buffer(var_pool_max, (T.int64(1), T.int64(2), (h + T.int64(1)) // T.int64(2), T.int64(3)))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(T.int64(1), T.int64(2), (h + T.int64(1)) // T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("pool_max"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rh, v_ax3 * T.int64(2) + v_rw])
                T.writes(pool_max[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    pool_max[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(-3.4028234663852886e+38)
                pool_max[v_ax0, v_ax1, v_ax2, v_ax3] = T.max(pool_max[v_ax0, v_ax1, v_ax2, v_ax3], T.if_then_else(v_ax2 * T.int64(2) + v_rh >= T.int64(0) and v_ax2 * T.int64(2) + v_rh < h and (v_ax3 * T.int64(2) + v_rw >= T.int64(0) and v_ax3 * T.int64(2) + v_rw < T.int64(6)), x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rh, v_ax3 * T.int64(2) + v_rw], T.float32(-3.4028234663852886e+38)))
