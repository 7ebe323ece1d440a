# PASSES: dispatch-library
# CHECKS: conv2d with a constant bias and sigmoid becomes one rlx.dnnl.conv2d call with "bias;sigmoid", symbolic n, h, w kept
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], [[[0.5, 0.25, 0.125]], [[1.5, 2.5, 3.5]]]], "float32"), strides=[1, 1], padding=[0, 1, 0, 1], dilation=[1, 1], groups=1)
            lv1 = R.expand_dims(R.const([0.5, -0.5], "float32"), axis=[1, 2])
            lv2 = R.add(lv0, lv1)
            gv = R.sigmoid(lv2)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv1: R.Tensor((2, 1, 1), dtype="float32") = R.expand_dims(R.const([0.5, -0.5], "float32"), axis=[1, 2])
            gv: R.Tensor((n, 2, h, w), dtype="float32") = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], [[[0.5, 0.25, 0.125]], [[1.5, 2.5, 3.5]]]], "float32"), R.shape([1, 1, 0, 1, 0, 1, 1, 1, 1]), R.str("bias;sigmoid"), R.prim_value(1), R.const([0.5, -0.5], "float32")), out_sinfo=R.Tensor((n, 2, h, w), dtype="float32"))
            R.output(gv)
        return gv
