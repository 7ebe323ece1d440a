# PASSES: legalize-ops
# CHECKS: causal (BottomRight) attention with bias, symbolic sequence lengths
@I.ir_module
class Before:
    @R.function
    def main(q: R.Tensor((1, "s", 2, 8), dtype="float32"), k: R.Tensor((1, "t", 2, 8), dtype="float32"), v: R.Tensor((1, "t", 2, 8), dtype="float32"), bias: R.Tensor((1, 2, "s", "t"), dtype="float32")):
        gv = R.nn.attention(q, k, v, bias, scale=T.float32(0.25), causal_mask="BottomRight")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(q: R.Tensor((1, "s", 2, 8), dtype="float32"), k: R.Tensor((1, "t", 2, 8), dtype="float32"), v: R.Tensor((1, "t", 2, 8), dtype="float32"), bias: R.Tensor((1, 2, "s", "t"), dtype="float32")) -> R.Tensor((1, "s", 2, 8), dtype="float32"):
        s = T.int64()
        t = T.int64()
        cls = Expected
        gv = R.call_tir(cls.attention, (q, k, v, bias), out_sinfo=R.Tensor((1, s, 2, 8), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def attention(var_q: T.handle, var_k: T.handle, var_v: T.handle, var_bias: T.handle, var_attention_sum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        s = T.int64()
        q = T.match_buffer(var_q, (T.int64(1), s, T.int64(2), T.int64(8)))
        t = T.int64()
        k = T.match_buffer(var_k, (T.int64(1), t, T.int64(2), T.int64(8)))
        v = T.match_buffer(var_v, (T.int64(1), t, T.int64(2), T.int64(8)))
        bias = T.match_buffer(var_bias, (T.int64(1), T.int64(2), s, t))
        attention_sum = T.match_buffer(var_attention_sum, (T.int64(1), s, T.int64(2), T.int64(8)))
        # with T.block("root"):
        attention_scores = T.alloc_buffer((T.int64(1), T.int64(2), s, t))
        attention_logits = T.alloc_buffer((T.int64(1), T.int64(2), s, t))
        softmax_maxelem = T.alloc_buffer((T.int64(1), T.int64(2), s))
        softmax_exp = T.alloc_buffer((T.int64(1), T.int64(2), s, t))
        softmax_expsum = T.alloc_buffer((T.int64(1), T.int64(2), s))
        softmax = T.alloc_buffer((T.int64(1), T.int64(2), s, t))
        for ax0, ax1, ax2, ax3, d in T.grid(T.int64(1), T.int64(2), s, t, T.int64(8)):
            with T.block("attention_scores"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_d = T.axis.remap("SSSSR", [ax0, ax1, ax2, ax3, d])
                T.reads(q[v_ax0, v_ax2, v_ax1, v_d], k[v_ax0, v_ax3, v_ax1, v_d])
                T.writes(attention_scores[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] = attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] + q[v_ax0, v_ax2, v_ax1, v_d] * k[v_ax0, v_ax3, v_ax1, v_d]
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), s, t):
            with T.block("attention_logits"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(attention_scores[v_ax0, v_ax1, v_ax2, v_ax3], bias[T.int64(0), v_ax1, v_ax2, v_ax3])
                T.writes(attention_logits[v_ax0, v_ax1, v_ax2, v_ax3])
                attention_logits[v_ax0, v_ax1, v_ax2, v_ax3] = T.Select(v_ax3 <= v_ax2 + (t - s), attention_scores[v_ax0, v_ax1, v_ax2, v_ax3] * T.float32(0.25) + bias[T.int64(0), v_ax1, v_ax2, v_ax3], T.float32(-3.4028234663852886e+38))
        for ax0, ax1, ax2, k_1 in T.grid(T.int64(1), T.int64(2), s, t):
            with T.block("softmax_maxelem"):
                v_ax0, v_ax1, v_ax2, v_k = T.axis.remap("SSSR", [ax0, ax1, ax2, k_1])
                T.reads(attention_logits[v_ax0, v_ax1, v_ax2, v_k])
                T.writes(softmax_maxelem[v_ax0, v_ax1, v_ax2])
                with T.init():
                    softmax_maxelem[v_ax0, v_ax1, v_ax2] = T.float32(-3.4028234663852886e+38)
                softmax_maxelem[v_ax0, v_ax1, v_ax2] = T.max(softmax_maxelem[v_ax0, v_ax1, v_ax2], attention_logits[v_ax0, v_ax1, v_ax2, v_k])
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), s, t):
            with T.block("softmax_exp"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(attention_logits[v_ax0, v_ax1, v_ax2, v_ax3], softmax_maxelem[v_ax0, v_ax1, v_ax2])
                T.writes(softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3])
                softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3] = T.exp(attention_logits[v_ax0, v_ax1, v_ax2, v_ax3] - softmax_maxelem[v_ax0, v_ax1, v_ax2])
        for ax0, ax1, ax2, k_1 in T.grid(T.int64(1), T.int64(2), s, t):
            with T.block("softmax_expsum"):
                v_ax0, v_ax1, v_ax2, v_k = T.axis.remap("SSSR", [ax0, ax1, ax2, k_1])
                T.reads(softmax_exp[v_ax0, v_ax1, v_ax2, v_k])
                T.writes(softmax_expsum[v_ax0, v_ax1, v_ax2])
                with T.init():
                    softmax_expsum[v_ax0, v_ax1, v_ax2] = T.float32(0.0)
                softmax_expsum[v_ax0, v_ax1, v_ax2] = softmax_expsum[v_ax0, v_ax1, v_ax2] + softmax_exp[v_ax0, v_ax1, v_ax2, v_k]
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), s, t):
            with T.block("softmax"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3], softmax_expsum[v_ax0, v_ax1, v_ax2])
                T.writes(softmax[v_ax0, v_ax1, v_ax2, v_ax3])
                softmax[v_ax0, v_ax1, v_ax2, v_ax3] = softmax_exp[v_ax0, v_ax1, v_ax2, v_ax3] / softmax_expsum[v_ax0, v_ax1, v_ax2]
        for ax0, ax1, ax2, ax3, t_1 in T.grid(T.int64(1), s, T.int64(2), T.int64(8), t):
            with T.block("attention_sum"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_t = T.axis.remap("SSSSR", [ax0, ax1, ax2, ax3, t_1])
                T.reads(softmax[v_ax0, v_ax2, v_ax1, v_t], v[v_ax0, v_t, v_ax2, v_ax3])
                T.writes(attention_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    attention_sum[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                attention_sum[v_ax0, v_ax1, v_ax2, v_ax3] = attention_sum[v_ax0, v_ax1, v_ax2, v_ax3] + softmax[v_ax0, v_ax2, v_ax1, v_t] * v[v_ax0, v_t, v_ax2, v_ax3]
