# PASSES: dispatch-library
# CHECKS: a depthwise conv2d (groups=2, stride 2, dilation 2 over symbolic h, w) followed by a constant batch_norm is folded at compile time (weight * gamma / sqrt(var + eps), bias = beta - mean * gamma / sqrt(var + eps); here gamma = 2, var = 3, eps = 1, so the scale is 1), then ONNX's HardSigmoid composition and a residual add of a tensor of the proven same shape: "bias;hard_sigmoid:0.2:0.5;add"
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), r: R.Tensor((1, 2, "(h - 1) // 2 + 1", "(w - 3) // 2 + 1"), dtype="float32")) -> R.Tensor((1, 2, "(h - 1) // 2 + 1", "(w - 3) // 2 + 1"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0, 2.0]]], [[[3.0, 4.0]]]], "float32"), strides=[2, 2], padding=[0, 0, 0, 0], dilation=[2, 2], groups=2)
            lv1 = R.nn.batch_norm(lv0, R.const([2.0, 2.0], "float32"), R.const([0.5, 1.5], "float32"), R.const([1.0, -1.0], "float32"), R.const([3.0, 3.0], "float32"), axis=1, epsilon=1.0)
            lv2 = lv1[0]
            lv3 = R.multiply(lv2, R.const(0.2, "float32"))
            lv4 = R.add(lv3, R.const(0.5, "float32"))
            lv5 = R.clip(lv4, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            gv = R.add(lv5, r)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), r: R.Tensor((1, 2, "(h - 1) // 2 + 1", "(w - 3) // 2 + 1"), dtype="float32")) -> R.Tensor((1, 2, "(h - 1) // 2 + 1", "(w - 3) // 2 + 1"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            gv: R.Tensor((1, 2, (h + 1) // 2, (w + 1) // 2 - 1), dtype="float32") = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0, 2.0]]], [[[3.0, 4.0]]]], "float32"), R.shape([2, 2, 0, 0, 0, 0, 2, 2, 2]), R.str("bias;hard_sigmoid:0.200000003:0.5;add"), R.prim_value(1), R.const([-0.5, 2.5], "float32"), r), out_sinfo=R.Tensor((1, 2, (h + 1) // 2, (w + 1) // 2 - 1), dtype="float32"))
            R.output(gv)
        return gv
