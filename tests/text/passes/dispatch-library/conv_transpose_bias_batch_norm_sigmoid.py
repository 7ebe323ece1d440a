# PASSES: dispatch-library
# CHECKS: conv2d_transpose (IOHW weight, stride 2, output_padding (1, 0), symbolic h, w) + per-channel bias + constant batch_norm + sigmoid, as in PaddleOCR's detection head, is one rlx.dnnl.conv2d_transpose call: batch_norm (gamma = (2, 0.5), var + eps = 1) folded into the weight along its axis 1 (output channels of IOHW) and into the bias (gamma * bias + beta - mean * gamma)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32")) -> R.Tensor((1, 2, "h * 2", "w * 2"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d_transpose(x, R.const([[[[1.0, 2.0]], [[3.0, 4.0]]], [[[5.0, 6.0]], [[7.0, 8.0]]]], "float32"), strides=[2, 2], padding=[0, 0, 0, 0], output_padding=[1, 0])
            lv1 = R.reshape(R.const([0.25, -1.0], "float32"), R.shape([1, 2, 1, 1]))
            lv2 = R.add(lv0, lv1)
            lv3 = R.nn.batch_norm(lv2, R.const([2.0, 0.5], "float32"), R.const([1.0, -1.0], "float32"), R.const([0.5, 0.25], "float32"), R.const([0.75, 0.75], "float32"), axis=1, epsilon=0.25)
            lv4 = lv3[0]
            gv = R.sigmoid(lv4)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32")) -> R.Tensor((1, 2, "h * 2", "w * 2"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv1: R.Tensor((1, 2, 1, 1), dtype="float32") = R.reshape(R.const([0.25, -1.0], "float32"), R.shape([1, 2, 1, 1]))
            gv = R.call_dps_packed("rlx.dnnl.conv2d_transpose", (x, R.const([[[[2.0, 4.0]], [[1.5, 2.0]]], [[[10.0, 12.0]], [[3.5, 4.0]]]], "float32"), R.shape([2, 2, 0, 0, 0, 0, 1, 0, 1, 1, 1]), R.str("bias;sigmoid"), R.prim_value(1), R.const([0.5, -1.625], "float32")), out_sinfo=R.Tensor((1, 2, h * 2, w * 2), dtype="float32"))
            R.output(gv)
        return gv
