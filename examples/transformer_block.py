# A pre-norm transformer block with a symbolic sequence length `n`
# (d_model 64, 4 heads of 16, MLP hidden size 256), written with high-level
# operators so that legalize-ops, fuse-ops and fuse-tir have work to do:
#   h = layer_norm(x); q, k, v = h @ wq, h @ wk, h @ wv (split into heads)
#   scores = q @ k^T / sqrt(16) + causal mask (-1e9 above the diagonal)
#   attn = softmax(scores) @ v, heads merged, @ wo; x1 = x + attn
#   out = x1 + gelu(layer_norm(x1) @ w1 + b1) @ w2 + b2
# Used by tests/unit/transform/fusion_e2e_test.cc (fusion on and off give
# the same result) and bench/fusion_bench.cc (kernel launches and latency).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 64), dtype="float32"), ln1_g: R.Tensor((64,), dtype="float32"), ln1_b: R.Tensor((64,), dtype="float32"), wq: R.Tensor((64, 64), dtype="float32"), wk: R.Tensor((64, 64), dtype="float32"), wv: R.Tensor((64, 64), dtype="float32"), wo: R.Tensor((64, 64), dtype="float32"), ln2_g: R.Tensor((64,), dtype="float32"), ln2_b: R.Tensor((64,), dtype="float32"), w1: R.Tensor((64, 256), dtype="float32"), b1: R.Tensor((256,), dtype="float32"), w2: R.Tensor((256, 64), dtype="float32"), b2: R.Tensor((64,), dtype="float32")) -> R.Tensor(("n", 64), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            h = R.nn.layer_norm(x, ln1_g, ln1_b, axes=[-1], epsilon=1e-05, center=True, scale=True)
            q = R.matmul(h, wq)
            k = R.matmul(h, wk)
            v = R.matmul(h, wv)
            q_heads = R.permute_dims(R.reshape(q, R.shape([n, 4, 16])), axes=[1, 0, 2])
            k_heads_t = R.permute_dims(R.reshape(k, R.shape([n, 4, 16])), axes=[1, 2, 0])
            v_heads = R.permute_dims(R.reshape(v, R.shape([n, 4, 16])), axes=[1, 0, 2])
            scores = R.multiply(R.matmul(q_heads, k_heads_t), R.const(0.25, "float32"))
            mask = R.triu(R.full(R.shape([n, n]), R.const(-1000000000.0, "float32"), dtype="float32"), R.prim_value(1))
            probs = R.nn.softmax(R.add(scores, mask), axis=-1)
            attn_heads = R.matmul(probs, v_heads)
            attn = R.reshape(R.permute_dims(attn_heads, axes=[1, 0, 2]), R.shape([n, 64]))
            x1 = R.add(x, R.matmul(attn, wo))
            h2 = R.nn.layer_norm(x1, ln2_g, ln2_b, axes=[-1], epsilon=1e-05, center=True, scale=True)
            up = R.nn.gelu(R.add(R.matmul(h2, w1), b1))
            down = R.add(R.matmul(up, w2), b2)
            out = R.add(x1, down)
            R.output(out)
        return out
