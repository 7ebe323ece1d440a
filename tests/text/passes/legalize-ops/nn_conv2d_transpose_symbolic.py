# PASSES: legalize-ops
# CHECKS: conv2d_transpose with symbolic spatial sizes: out = (h - 1) * 2 + 1
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 4, "h", "w"), dtype="float32"), wt: R.Tensor((4, 3, 3, 3), dtype="float32")):
        gv = R.nn.conv2d_transpose(x, wt, strides=[2, 2], padding=[1, 1, 1, 1])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 4, "h", "w"), dtype="float32"), wt: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 3, "h * 2 - 1", "w * 2 - 1"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        cls = Expected
        gv = R.call_tir(cls.conv2d_transpose, (x, wt), out_sinfo=R.Tensor((1, 3, h * 2 - 1, w * 2 - 1), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv2d_transpose(var_x: T.handle, wt: T.Buffer((T.int64(4), T.int64(3), T.int64(3), T.int64(3)), "float32"), var_conv_transpose: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        h, w = T.int64(), T.int64()
        x = T.match_buffer(var_x, (T.int64(1), T.int64(4), h, w))
        conv_transpose = T.match_buffer(var_conv_transpose, (T.int64(1), T.int64(3), h * T.int64(2) - T.int64(1), w * T.int64(2) - T.int64(1)))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, rc, r0, r1 in T.grid(T.int64(1), T.int64(3), h * T.int64(2) - T.int64(1), w * T.int64(2) - T.int64(1), T.int64(4), T.int64(3), T.int64(3)):
            with T.block("conv_transpose"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rc, v_r0, v_r1 = T.axis.remap("SSSSRRR", [ax0, ax1, ax2, ax3, rc, r0, r1])
                T.reads(x[v_ax0, v_rc, (v_ax2 - v_r0 + T.int64(1)) // T.int64(2), (v_ax3 - v_r1 + T.int64(1)) // T.int64(2)], wt[v_rc, v_ax1, v_r0, v_r1])
                T.writes(conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3] = conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 - v_r0 + T.int64(1) >= T.int64(0) and (v_ax2 - v_r0 + T.int64(1)) % T.int64(2) == T.int64(0) and (v_ax2 - v_r0 + T.int64(1)) // T.int64(2) < h and v_ax3 - v_r1 + T.int64(1) >= T.int64(0) and (v_ax3 - v_r1 + T.int64(1)) % T.int64(2) == T.int64(0) and (v_ax3 - v_r1 + T.int64(1)) // T.int64(2) < w, x[v_ax0, v_rc, (v_ax2 - v_r0 + T.int64(1)) // T.int64(2), (v_ax3 - v_r1 + T.int64(1)) // T.int64(2)] * wt[v_rc, v_ax1, v_r0, v_r1], T.float32(0.0))
