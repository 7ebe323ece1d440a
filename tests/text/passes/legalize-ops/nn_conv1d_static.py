# PASSES: legalize-ops
# CHECKS: conv1d with stride 2 and padding
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 9), dtype="float32"), w: R.Tensor((4, 3, 3), dtype="float32")):
        gv = R.nn.conv1d(x, w, strides=[2], padding=[1, 1])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3, 9), dtype="float32"), w: R.Tensor((4, 3, 3), dtype="float32")) -> R.Tensor((2, 4, 5), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.conv1d, (x, w), out_sinfo=R.Tensor((2, 4, 5), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv1d(x: T.Buffer((T.int64(2), T.int64(3), T.int64(9)), "float32"), w: T.Buffer((T.int64(4), T.int64(3), T.int64(3)), "float32"), conv: T.Buffer((T.int64(2), T.int64(4), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, rc, r0 in T.grid(T.int64(2), T.int64(4), T.int64(5), T.int64(3), T.int64(3)):
            with T.block("conv"):
                v_ax0, v_ax1, v_ax2, v_rc, v_r0 = T.axis.remap("SSSRR", [ax0, ax1, ax2, rc, r0])
                T.reads(x[v_ax0, v_rc, v_ax2 * T.int64(2) + v_r0 - T.int64(1)], w[v_ax1, v_rc, v_r0])
                T.writes(conv[v_ax0, v_ax1, v_ax2])
                with T.init():
                    conv[v_ax0, v_ax1, v_ax2] = T.float32(0.0)
                conv[v_ax0, v_ax1, v_ax2] = conv[v_ax0, v_ax1, v_ax2] + T.if_then_else(v_ax2 * T.int64(2) + v_r0 - T.int64(1) >= T.int64(0) and v_ax2 * T.int64(2) + v_r0 - T.int64(1) < T.int64(9), x[v_ax0, v_rc, v_ax2 * T.int64(2) + v_r0 - T.int64(1)] * w[v_ax1, v_rc, v_r0], T.float32(0.0))
