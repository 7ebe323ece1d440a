# PASSES: legalize-ops
# CHECKS: max_pool3d with symbolic depth and width: output dims d // 2
# and w // 2 + 1 (width padded by 1 on both sides), three reduce axes rd, rh,
# rw, and only the padded width guarded
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "d", 4, "w"), dtype="float32")):
        gv = R.nn.max_pool3d(x, pool_size=[2, 2, 2], strides=[2, 2, 2], padding=[0, 0, 1, 0, 0, 1], layout="NCDHW")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "d", 4, "w"), dtype="float32")) -> R.Tensor((1, 2, "d // 2", 2, "w // 2 + 1"), dtype="float32"):
        d = T.int64()
        w = T.int64()
        cls = Expected
        gv = R.call_tir(cls.max_pool3d, (x,), out_sinfo=R.Tensor((1, 2, d // 2, 2, w // 2 + 1), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def max_pool3d(var_x: T.handle, var_pool_max: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        d, w = T.int64(), T.int64()
        x = T.match_buffer(var_x, (T.int64(1), T.int64(2), d, T.int64(4), w))
        pool_max = T.match_buffer(var_pool_max, (T.int64(1), T.int64(2), d // T.int64(2), T.int64(2), w // T.int64(2) + T.int64(1)))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, ax4, rd, rh, rw in T.grid(T.int64(1), T.int64(2), d // T.int64(2), T.int64(2), w // T.int64(2) + T.int64(1), T.int64(2), T.int64(2), T.int64(2)):
            with T.block("pool_max"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_ax4, v_rd, v_rh, v_rw = T.axis.remap("SSSSSRRR", [ax0, ax1, ax2, ax3, ax4, rd, rh, rw])
                T.reads(x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rd, v_ax3 * T.int64(2) + v_rh, v_ax4 * T.int64(2) + v_rw - T.int64(1)])
                T.writes(pool_max[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4])
                with T.init():
                    pool_max[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = T.float32(-3.4028234663852886e+38)
                pool_max[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = T.max(pool_max[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4], T.if_then_else(v_ax4 * T.int64(2) + v_rw - T.int64(1) >= T.int64(0) and v_ax4 * T.int64(2) + v_rw - T.int64(1) < w, x[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_rd, v_ax3 * T.int64(2) + v_rh, v_ax4 * T.int64(2) + v_rw - T.int64(1)], T.float32(-3.4028234663852886e+38)))
