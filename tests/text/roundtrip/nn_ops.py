# nn operators with TVM's printed attributes: softmax, norms, dropout, pad,
# attention (with and without bias), symbolic batch and sequence lengths.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def norms(x: R.Tensor(("b", "s", 64), dtype="float32"), g: R.Tensor((64,), dtype="float32"), beta: R.Tensor((64,), dtype="float32")) -> R.Tensor(("b", "s", 64), dtype="float32"):
        b = T.int64()
        s = T.int64()
        with R.dataflow():
            lv = R.nn.softmax(x, axis=-1)
            lv1 = R.nn.log_softmax(lv, axis=1)
            lv2 = R.nn.layer_norm(lv1, g, beta, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv3 = R.nn.rms_norm(lv2, g, axes=[-1], epsilon=1e-06)
            lv4 = R.nn.dropout(lv3, rate=0.10000000000000001)
            lv5 = lv4[0]
            gv = R.nn.pad(lv5, pad_width=[0, 0, 0, 0, 0, 0], pad_value=0.0, pad_mode="constant")
            R.output(gv)
        return gv

    @R.function
    def group_and_batch(x: R.Tensor(("n", 6, 5, 5), dtype="float32"), c: R.Tensor((6,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 6, 5, 5), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")):
        n = T.int64()
        lv = R.nn.group_norm(x, c, c, num_groups=3, channel_axis=1, axes=[2, 3], epsilon=1.0000000000000001e-05, center=True, scale=True)
        gv = R.nn.batch_norm(lv, c, c, c, c, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001)
        return gv

    @R.function
    def attn(q: R.Tensor((4, "s", 32, 16), dtype="float32"), k: R.Tensor((4, "t", 32, 16), dtype="float32"), v: R.Tensor((4, "t", 32, 8), dtype="float32"), bias: R.Tensor((4, 32, "s", "t"), dtype="float32")) -> R.Tensor((4, "s", 32, 8), dtype="float32"):
        s = T.int64()
        t = T.int64()
        lv = R.nn.attention(q, k, v, scale=None, causal_mask=None, window_size=None)
        gv = R.nn.attention(q, k, v, bias, scale=T.float32(0.25), causal_mask="BottomRight", window_size=None)
        return gv
