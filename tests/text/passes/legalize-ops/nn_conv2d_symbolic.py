# PASSES: legalize-ops
# CHECKS: conv2d with symbolic batch, height and width: the output size (h - 3) // 1 + 1 simplifies to h - 2
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), wt: R.Tensor((4, 3, 3, 3), dtype="float32")):
        gv = R.nn.conv2d(x, wt)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), wt: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor(("n", 4, "h - 2", "w - 2"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        cls = Expected
        gv = R.call_tir(cls.conv2d, (x, wt), out_sinfo=R.Tensor((n, 4, h - 2, w - 2), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv2d(var_x: T.handle, wt: T.Buffer((T.int64(4), T.int64(3), T.int64(3), T.int64(3)), "float32"), var_conv: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, h, w = T.int64(), T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), h, w))
        conv = T.match_buffer(var_conv, (n, T.int64(4), h - T.int64(2), w - T.int64(2)))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, rc, r0, r1 in T.grid(n, T.int64(4), h - T.int64(2), w - T.int64(2), T.int64(3), T.int64(3), T.int64(3)):
            with T.block("conv"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rc, v_r0, v_r1 = T.axis.remap("SSSSRRR", [ax0, ax1, ax2, ax3, rc, r0, r1])
                T.reads(x[v_ax0, v_rc, v_ax2 + v_r0, v_ax3 + v_r1], wt[v_ax1, v_rc, v_r0, v_r1])
                T.writes(conv[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    conv[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                conv[v_ax0, v_ax1, v_ax2, v_ax3] = conv[v_ax0, v_ax1, v_ax2, v_ax3] + x[v_ax0, v_rc, v_ax2 + v_r0, v_ax3 + v_r1] * wt[v_ax1, v_rc, v_r0, v_r1]
