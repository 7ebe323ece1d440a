# PASSES: legalize-ops
# CHECKS: NHWC / HWIO conv2d with 2 groups
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 5, 5, 4), dtype="float32"), w: R.Tensor((3, 3, 2, 6), dtype="float32")):
        gv = R.nn.conv2d(x, w, padding=[1, 1], groups=2, data_layout="NHWC", kernel_layout="HWIO")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 5, 5, 4), dtype="float32"), w: R.Tensor((3, 3, 2, 6), dtype="float32")) -> R.Tensor((1, 5, 5, 6), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.conv2d, (x, w), out_sinfo=R.Tensor((1, 5, 5, 6), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv2d(x: T.Buffer((T.int64(1), T.int64(5), T.int64(5), T.int64(4)), "float32"), w: T.Buffer((T.int64(3), T.int64(3), T.int64(2), T.int64(6)), "float32"), conv: T.Buffer((T.int64(1), T.int64(5), T.int64(5), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, rc, r0, r1 in T.grid(T.int64(1), T.int64(5), T.int64(5), T.int64(6), T.int64(2), T.int64(3), T.int64(3)):
            with T.block("conv"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rc, v_r0, v_r1 = T.axis.remap("SSSSRRR", [ax0, ax1, ax2, ax3, rc, r0, r1])
                T.reads(x[v_ax0, v_ax1 + v_r0 - T.int64(1), v_ax2 + v_r1 - T.int64(1), v_ax3 // T.int64(3) * T.int64(2) + v_rc], w[v_r0, v_r1, v_rc, v_ax3])
                T.writes(conv[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    conv[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                conv[v_ax0, v_ax1, v_ax2, v_ax3] = conv[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax1 + v_r0 - T.int64(1) >= T.int64(0) and v_ax1 + v_r0 - T.int64(1) < T.int64(5) and (v_ax2 + v_r1 - T.int64(1) >= T.int64(0) and v_ax2 + v_r1 - T.int64(1) < T.int64(5)), x[v_ax0, v_ax1 + v_r0 - T.int64(1), v_ax2 + v_r1 - T.int64(1), v_ax3 // T.int64(3) * T.int64(2) + v_rc] * w[v_r0, v_r1, v_rc, v_ax3], T.float32(0.0))
