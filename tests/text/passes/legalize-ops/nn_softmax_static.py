# PASSES: legalize-ops
# CHECKS: softmax over the last axis: max, exp, sum and divide blocks
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        gv = R.nn.softmax(x, axis=-1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.softmax, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def softmax(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), softmax: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        softmax_maxelem = T.alloc_buffer((T.int64(2),))
        softmax_exp = T.alloc_buffer((T.int64(2), T.int64(3)))
        softmax_expsum = T.alloc_buffer((T.int64(2),))
        for ax0, k in T.grid(T.int64(2), T.int64(3)):
            with T.block("softmax_maxelem"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(x[v_ax0, v_k])
                T.writes(softmax_maxelem[v_ax0])
                with T.init():
                    softmax_maxelem[v_ax0] = T.float32(-3.4028234663852886e+38)
                softmax_maxelem[v_ax0] = T.max(softmax_maxelem[v_ax0], x[v_ax0, v_k])
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("softmax_exp"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], softmax_maxelem[v_ax0])
                T.writes(softmax_exp[v_ax0, v_ax1])
                softmax_exp[v_ax0, v_ax1] = T.exp(x[v_ax0, v_ax1] - softmax_maxelem[v_ax0])
        for ax0, k in T.grid(T.int64(2), T.int64(3)):
            with T.block("softmax_expsum"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(softmax_exp[v_ax0, v_k])
                T.writes(softmax_expsum[v_ax0])
                with T.init():
                    softmax_expsum[v_ax0] = T.float32(0.0)
                softmax_expsum[v_ax0] = softmax_expsum[v_ax0] + softmax_exp[v_ax0, v_k]
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("softmax"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(softmax_exp[v_ax0, v_ax1], softmax_expsum[v_ax0])
                T.writes(softmax[v_ax0, v_ax1])
                softmax[v_ax0, v_ax1] = softmax_exp[v_ax0, v_ax1] / softmax_expsum[v_ax0]
