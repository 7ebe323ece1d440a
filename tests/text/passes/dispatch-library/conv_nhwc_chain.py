# PASSES: convert-layout,dead-code-elimination,dispatch-library
# CHECKS: NHWC / OHWI convolutions (from convert-layout) are dispatched with a tenth attrs value 1: a constant batch_norm on axis 3 folded into the OHWI weight and a (C,) bias, relu; a depthwise conv with a per-channel bias (the (C, 1, 1) expand_dims became a (C,) constant), clip and a residual add of an NHWC tensor; only the network input and output are permuted
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]], "float32"))
            lv1 = R.nn.batch_norm(lv0, R.const([2.0, 2.0], "float32"), R.const([0.5, 1.5], "float32"), R.const([1.0, -1.0], "float32"), R.const([3.0, 3.0], "float32"), axis=1, epsilon=1.0)
            lv2 = lv1[0]
            lv3 = R.nn.relu(lv2)
            lv4 = R.nn.conv2d(lv3, R.const([[[[1.0, 0.0, -1.0]]], [[[0.5, 0.5, 0.5]]]], "float32"), padding=[0, 1, 0, 1], groups=2)
            lv5 = R.expand_dims(R.const([0.25, -0.25], "float32"), axis=[1, 2])
            lv6 = R.add(lv4, lv5)
            lv7 = R.clip(lv6, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            gv = R.add(lv7, lv3)
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
            lv: R.Tensor((n, h, w, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv3 = R.call_dps_packed("rlx.dnnl.conv2d", (lv, R.const([[[[1.0, 2.0]]], [[[3.0, 4.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1, 1]), R.str("bias;relu"), R.prim_value(1), R.const([-0.5, 2.5], "float32")), out_sinfo=R.Tensor((n, h, w, 2), dtype="float32"))
            gv = R.call_dps_packed("rlx.dnnl.conv2d", (lv3, R.const([[[[1.0], [0.0], [-1.0]]], [[[0.5], [0.5], [0.5]]]], "float32"), R.shape([1, 1, 0, 1, 0, 1, 1, 1, 2, 1]), R.str("bias;clip:0:6;add"), R.prim_value(1), R.const([0.25, -0.25], "float32"), lv3), out_sinfo=R.Tensor((n, h, w, 2), dtype="float32"))
            gv_1: R.Tensor((n, 2, h, w), dtype="float32") = R.permute_dims(gv, axes=[0, 3, 1, 2])
            R.output(gv_1)
        return gv_1
