# PASSES: legalize-ops
# CHECKS: conv1d over a symbolic length
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3, "l"), dtype="float32"), w: R.Tensor((4, 3, 3), dtype="float32")):
        gv = R.nn.conv1d(x, w)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3, "l"), dtype="float32"), w: R.Tensor((4, 3, 3), dtype="float32")) -> R.Tensor(("n", 4, "l - 2"), dtype="float32"):
        n = T.int64()
        l = T.int64()
        cls = Expected
        gv = R.call_tir(cls.conv1d, (x, w), out_sinfo=R.Tensor((n, 4, l - 2), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def conv1d(var_x: T.handle, w: T.Buffer((T.int64(4), T.int64(3), T.int64(3)), "float32"), var_conv: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, l = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), l))
        conv = T.match_buffer(var_conv, (n, T.int64(4), l - T.int64(2)))
        # with T.block("root"):
        for ax0, ax1, ax2, rc, r0 in T.grid(n, T.int64(4), l - T.int64(2), T.int64(3), T.int64(3)):
            with T.block("conv"):
                v_ax0, v_ax1, v_ax2, v_rc, v_r0 = T.axis.remap("SSSRR", [ax0, ax1, ax2, rc, r0])
                T.reads(x[v_ax0, v_rc, v_ax2 + v_r0], w[v_ax1, v_rc, v_r0])
                T.writes(conv[v_ax0, v_ax1, v_ax2])
                with T.init():
                    conv[v_ax0, v_ax1, v_ax2] = T.float32(0.0)
                conv[v_ax0, v_ax1, v_ax2] = conv[v_ax0, v_ax1, v_ax2] + x[v_ax0, v_rc, v_ax2 + v_r0] * w[v_ax1, v_rc, v_r0]
