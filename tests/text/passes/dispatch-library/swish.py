# PASSES: dispatch-library
# CHECKS: Swish as the ONNX importer writes it (x used twice: x * sigmoid(x * a)) after a matmul + bias, as in PP-OCRv4 rec's SVTR neck, and without the scalar multiply after a conv: "bias;swish:1" and "swish:1"; a sigmoid multiplied by another tensor is not Swish: the sigmoid is a post-op, the multiply stays
@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor(("m", 2), dtype="float32"), x: R.Tensor((1, 2, 3, 3), dtype="float32"), y: R.Tensor((1, 2, 3, 3), dtype="float32")) -> R.Tuple(R.Tensor(("m", 2), dtype="float32"), R.Tensor((1, 2, 3, 3), dtype="float32"), R.Tensor((1, 2, 3, 3), dtype="float32")):
        m = T.int64()
        with R.dataflow():
            lv0 = R.matmul(a, R.const([[1.0, 2.0], [3.0, 4.0]], "float32"))
            lv1 = R.add(lv0, R.const([0.5, -0.5], "float32"))
            lv2 = R.multiply(lv1, R.const(1.0, "float32"))
            lv3 = R.sigmoid(lv2)
            gv0 = R.multiply(lv1, lv3)
            lv4 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]], "float32"))
            lv5 = R.sigmoid(lv4)
            gv1 = R.multiply(lv5, lv4)
            lv6 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[5.0]]]], "float32"))
            lv7 = R.sigmoid(lv6)
            gv2 = R.multiply(lv7, y)
            R.output(gv0, gv1, gv2)
        return (gv0, gv1, gv2)

@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor(("m", 2), dtype="float32"), x: R.Tensor((1, 2, 3, 3), dtype="float32"), y: R.Tensor((1, 2, 3, 3), dtype="float32")) -> R.Tuple(R.Tensor(("m", 2), dtype="float32"), R.Tensor((1, 2, 3, 3), dtype="float32"), R.Tensor((1, 2, 3, 3), dtype="float32")):
        m = T.int64()
        with R.dataflow():
            gv0 = R.call_dps_packed("rlx.dnnl.matmul", (a, R.const([[1.0, 2.0], [3.0, 4.0]], "float32"), R.str("bias;swish:1"), R.prim_value(1), R.const([0.5, -0.5], "float32")), out_sinfo=R.Tensor((m, 2), dtype="float32"))
            gv1 = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str("swish:1"), R.prim_value(1)), out_sinfo=R.Tensor((1, 2, 3, 3), dtype="float32"))
            lv7 = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[5.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str("sigmoid"), R.prim_value(1)), out_sinfo=R.Tensor((1, 2, 3, 3), dtype="float32"))
            gv2: R.Tensor((1, 2, 3, 3), dtype="float32") = R.multiply(lv7, y)
            R.output(gv0, gv1, gv2)
        return (gv0, gv1, gv2)
