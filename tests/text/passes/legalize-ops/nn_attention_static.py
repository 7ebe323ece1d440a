# PASSES: legalize-ops
# CHECKS: attention without bias: scores, softmax over the key axis, weighted sum of values
@I.ir_module
class Before:
    @R.function
    def main(q: R.Tensor((1, 4, 2, 8), dtype="float32"), k: R.Tensor((1, 6, 2, 8), dtype="float32"), v: R.Tensor((1, 6, 2, 8), dtype="float32")):
        gv = R.nn.attention(q, k, v)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(q: R.Tensor((1, 4, 2, 8), dtype="float32"), k: R.Tensor((1, 6, 2, 8), dtype="float32"), v: R.Tensor((1, 6, 2, 8), dtype="float32")) -> R.Tensor((1, 4, 2, 8), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.attention, (q, k, v), out_sinfo=R.Tensor((1, 4, 2, 8), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def attention(q: T.Buffer((T.int64(1), T.int64(4), T.int64(2), T.int64(8)), "float32"), k: T.Buffer((T.int64(1), T.int64(6), T.int64(2), T.int64(8)), "float32"), v: T.Buffer((T.int64(1), T.int64(6), T.int64(2), T.int64(8)), "float32"), attention_sum: T.Buffer((T.int64(1), T.int64(4), T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        attention_scores = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(6)))
        attention_logits = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(6)))
        softmax_maxelem = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(4)))
        softmax_exp = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(6)))
        softmax_expsum = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(4)))
        softmax = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(6)))
        for ax0, ax1, ax2, ax3, d in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(6), T.int64(8)):
            with T.block("attention_scores"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_d = T.axis.remap("SSSSR", [ax0, ax1, ax2, ax3, d])
                T.reads(q[v_ax0, v_ax2, v_ax1, v_d], k[v_ax0, v_ax3, v_ax1, v_d])
                T.writes(attention_scores[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] = attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] + q[v_ax0, v_ax2, v_ax1, v_d] * k[v_ax0, v_ax3, v_ax1, v_d]
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(6)):
            with T.block("attention_logits"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(attention_scores[v_ax0, v_ax1, v_ax2, v_ax3])
                T.writes(attention_logits[v_ax0, v_ax1, v_ax2, v_ax3])
                attention_logits[v_ax0, v_ax1, v_ax2, v_ax3] = attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] * T.rsqrt(T.float32(8.0))
        for ax0, ax1, ax2, k_1 in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(6)):
            with T.block("softmax_maxelem"):
                v_ax0, v_ax1, v_ax2, v_k = T.axis.remap("SSSR", [ax0, ax1, ax2, k_1])
                T.reads(attention_logits[v_ax0, v_ax1, v_ax2, v_k])
                T.writes(softmax_maxelem[v_ax0, v_ax1, v_ax2])
                with T.init():
                    softmax_maxelem[v_ax0, v_ax1, v_ax2] = T.float32(-3.4028234663852886e+38)
                softmax_maxelem[v_ax0, v_ax1, v_ax2] = T.max(softmax_maxelem[v_ax0, v_ax1, v_ax2], attention_logits[v_ax0, v_ax1, v_ax2, v_k])
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(6)):
            with T.block("softmax_exp"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(attention_logits[v_ax0, v_ax1, v_ax2, v_ax3], softmax_maxelem[v_ax0, v_ax1, v_ax2])
                T.writes(softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3])
                softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3] = T.exp(attention_logits[v_ax0, v_ax1, v_ax2, v_ax3] - softmax_maxelem[v_ax0, v_ax1, v_ax2])
        for ax0, ax1, ax2, k_1 in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(6)):
            with T.block("softmax_expsum"):
                v_ax0, v_ax1, v_ax2, v_k = T.axis.remap("SSSR", [ax0, ax1, ax2, k_1])
                T.reads(softmax_exp[v_ax0, v_ax1, v_ax2, v_k])
                T.writes(softmax_expsum[v_ax0, v_ax1, v_ax2])
                with T.init():
                    softmax_expsum[v_ax0, v_ax1, v_ax2] = T.float32(0.0)
                softmax_expsum[v_ax0, v_ax1, v_ax2] = softmax_expsum[v_ax0, v_ax1, v_ax2] + softmax_exp[v_ax0, v_ax1, v_ax2, v_k]
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(6)):
            with T.block("softmax"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3], softmax_expsum[v_ax0, v_ax1, v_ax2])
                T.writes(softmax[v_ax0, v_ax1, v_ax2, v_ax3])
                softmax[v_ax0, v_ax1, v_ax2, v_ax3] = softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3] / softmax_expsum[v_ax0, v_ax1, v_ax2]
        for ax0, ax1, ax2, ax3, t in T.grid(T.int64(1), T.int64(4), T.int64(2), T.int64(8), T.int64(6)):
            with T.block("attention_sum"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_t = T.axis.remap("SSSSR", [ax0, ax1, ax2, ax3, t])
                T.reads(softmax[v_ax0, v_ax2, v_ax1, v_t], v[v_ax0, v_t, v_ax2, v_ax3])
                T.writes(attention_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    attention_sum[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                attention_sum[v_ax0, v_ax1, v_ax2, v_ax3] = attention_sum[v_ax0, v_ax1, v_ax2, v_ax3] + softmax[v_ax0, v_ax2, v_ax1, v_t] * v[v_ax0, v_t, v_ax2, v_ax3]
