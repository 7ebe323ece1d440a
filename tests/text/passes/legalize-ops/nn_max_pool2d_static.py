# PASSES: legalize-ops
# CHECKS: max_pool2d with padding: padded positions read the lowest float
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 7, 7), dtype="float32")):
        gv = R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 7, 7), dtype="float32")) -> R.Tensor((1, 2, 4, 4), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.max_pool2d, (x,), out_sinfo=R.Tensor((1, 2, 4, 4), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def max_pool2d(x: T.Buffer((T.int64(1), T.int64(2), T.int64(7), T.int64(7)), "float32"), pool_max: T.Buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, rh, rw in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(4), T.int64(3), T.int64(3)):
            with T.block("pool_max"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rh, v_rw = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rh - T.int64(1), v_ax3 * T.int64(2) + v_rw - T.int64(1)])
                T.writes(pool_max[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    pool_max[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(-3.4028234663852886e+38)
                pool_max[v_ax0, v_ax1, v_ax2, v_ax3] = T.max(pool_max[v_ax0, v_ax1, v_ax2, v_ax3], T.if_then_else(v_ax2 * T.int64(2) + v_rh - T.int64(1) >= T.int64(0) and v_ax2 * T.int64(2) + v_rh - T.int64(1) < T.int64(7) and (v_ax3 * T.int64(2) + v_rw - T.int64(1) >= T.int64(0) and v_ax3 * T.int64(2) + v_rw - T.int64(1) < T.int64(7)), x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rh - T.int64(1), v_ax3 * T.int64(2) + v_rw - T.int64(1)], T.float32(-3.4028234663852886e+38)))
