# PASSES: legalize-ops
# CHECKS: conv2d_transpose with stride 2 and output_padding
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 4, 5, 5), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32")):
        gv = R.nn.conv2d_transpose(x, w, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 4, 5, 5), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 3, 10, 10), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.conv2d_transpose, (x, w), out_sinfo=R.Tensor((1, 3, 10, 10), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv2d_transpose(x: T.Buffer((T.int64(1), T.int64(4), T.int64(5), T.int64(5)), "float32"), w: T.Buffer((T.int64(4), T.int64(3), T.int64(3), T.int64(3)), "float32"), conv_transpose: T.Buffer((T.int64(1), T.int64(3), T.int64(10), T.int64(10)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, rc, r0, r1 in T.grid(T.int64(1), T.int64(3), T.int64(10), T.int64(10), T.int64(4), T.int64(3), T.int64(3)):
            with T.block("conv_transpose"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_rc, v_r0, v_r1 = T.axis.remap("SSSSRRR", [ax0, ax1, ax2, ax3, rc, r0, r1])
                T.reads(x[v_ax0, v_rc, (v_ax2 - v_r0 + T.int64(1)) // T.int64(2), (v_ax3 - v_r1 + T.int64(1)) // T.int64(2)], w[v_rc, v_ax1, v_r0, v_r1])
                T.writes(conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3] = conv_transpose[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 - v_r0 + T.int64(1) >= T.int64(0) and (v_ax2 - v_r0 + T.int64(1)) % T.int64(2) == T.int64(0) and (v_ax2 - v_r0 + T.int64(1)) // T.int64(2) < T.int64(5) and v_ax3 - v_r1 + T.int64(1) >= T.int64(0) and (v_ax3 - v_r1 + T.int64(1)) % T.int64(2) == T.int64(0) and (v_ax3 - v_r1 + T.int64(1)) // T.int64(2) < T.int64(5), x[v_ax0, v_rc, (v_ax2 - v_r0 + T.int64(1)) // T.int64(2), (v_ax3 - v_r1 + T.int64(1)) // T.int64(2)] * w[v_rc, v_ax1, v_r0, v_r1], T.float32(0.0))
