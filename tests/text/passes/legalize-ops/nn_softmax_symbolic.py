# PASSES: legalize-ops
# CHECKS: softmax over axis 0 of (n, 4): the PrimFunc is symbolic in n
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        gv = R.nn.softmax(x, axis=0)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.softmax, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def softmax(var_x: T.handle, var_softmax: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        softmax = T.match_buffer(var_softmax, (n, T.int64(4)))
        # with T.block("root"):
        softmax_maxelem = T.alloc_buffer((T.int64(4),))
        softmax_exp = T.alloc_buffer((n, T.int64(4)))
        softmax_expsum = T.alloc_buffer((T.int64(4),))
        for ax0, k in T.grid(T.int64(4), n):
            with T.block("softmax_maxelem"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(x[v_k, v_ax0])
                T.writes(softmax_maxelem[v_ax0])
                with T.init():
                    softmax_maxelem[v_ax0] = T.float32(-3.4028234663852886e+38)
                softmax_maxelem[v_ax0] = T.max(softmax_maxelem[v_ax0], x[v_k, v_ax0])
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("softmax_exp"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], softmax_maxelem[v_ax1])
                T.writes(softmax_exp[v_ax0, v_ax1])
                softmax_exp[v_ax0, v_ax1] = T.exp(x[v_ax0, v_ax1] - softmax_maxelem[v_ax1])
        for ax0, k in T.grid(T.int64(4), n):
            with T.block("softmax_expsum"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(softmax_exp[v_k, v_ax0])
                T.writes(softmax_expsum[v_ax0])
                with T.init():
                    softmax_expsum[v_ax0] = T.float32(0.0)
                softmax_expsum[v_ax0] = softmax_expsum[v_ax0] + softmax_exp[v_k, v_ax0]
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("softmax"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(softmax_exp[v_ax0, v_ax1], softmax_expsum[v_ax1])
                T.writes(softmax[v_ax0, v_ax1])
                softmax[v_ax0, v_ax1] = softmax_exp[v_ax0, v_ax1] / softmax_expsum[v_ax1]
