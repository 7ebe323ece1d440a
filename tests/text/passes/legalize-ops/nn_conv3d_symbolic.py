# PASSES: legalize-ops
# CHECKS: conv3d over a symbolic depth, strided and padded in H
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "d", 5, 5), dtype="float32"), w: R.Tensor((4, 2, 2, 3, 3), dtype="float32")):
        gv = R.nn.conv3d(x, w, strides=[1, 2, 1], padding=[0, 1, 0, 0, 1, 0])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "d", 5, 5), dtype="float32"), w: R.Tensor((4, 2, 2, 3, 3), dtype="float32")) -> R.Tensor((1, 4, "d - 1", 3, 3), dtype="float32"):
        d = T.int64()
        cls = Expected
        gv = R.call_tir(cls.conv3d, (x, w), out_sinfo=R.Tensor((1, 4, d - 1, 3, 3), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv3d(var_x: T.handle, w: T.Buffer((T.int64(4), T.int64(2), T.int64(2), T.int64(3), T.int64(3)), "float32"), var_conv: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        d = T.int64()
        x = T.match_buffer(var_x, (T.int64(1), T.int64(2), d, T.int64(5), T.int64(5)))
        conv = T.match_buffer(var_conv, (T.int64(1), T.int64(4), d - T.int64(1), T.int64(3), T.int64(3)))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, ax4, rc, r0, r1, r2 in T.grid(T.int64(1), T.int64(4), d - T.int64(1), T.int64(3), T.int64(3), T.int64(2), T.int64(2), T.int64(3), T.int64(3)):
            with T.block("conv"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_ax4, v_rc, v_r0, v_r1, v_r2 = T.axis.remap("SSSSSRRRR", [ax0, ax1, ax2, ax3, ax4, rc, r0, r1, r2])
                T.reads(x[v_ax0, v_rc, v_ax2 + v_r0, v_ax3 * T.int64(2) + v_r1 - T.int64(1), v_ax4 + v_r2], w[v_ax1, v_rc, v_r0, v_r1, v_r2])
                T.writes(conv[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4])
                with T.init():
                    conv[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = T.float32(0.0)
                conv[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = conv[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] + T.if_then_else(v_ax3 * T.int64(2) + v_r1 - T.int64(1) >= T.int64(0) and v_ax3 * T.int64(2) + v_r1 - T.int64(1) < T.int64(5), x[v_ax0, v_rc, v_ax2 + v_r0, v_ax3 * T.int64(2) + v_r1 - T.int64(1), v_ax4 + v_r2] * w[v_ax1, v_rc, v_r0, v_r1, v_r2], T.float32(0.0))
