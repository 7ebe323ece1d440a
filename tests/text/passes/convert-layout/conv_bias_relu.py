# PASSES: convert-layout
# CHECKS: conv2d over symbolic n, h, w becomes NHWC / OHWI: the data permuted to NHWC, the constant kernel permuted at compile time, the (C, 1, 1) bias (an expand_dims of a constant) becomes a (C,) constant, relu keeps NHWC and the output is permuted back to NCHW
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]], "float32"))
            lv1 = R.expand_dims(R.const([0.5, -0.5], "float32"), axis=[1, 2])
            lv2 = R.add(lv0, lv1)
            gv = R.nn.relu(lv2)
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
            lv0: R.Tensor((n, h, w, 2), dtype="float32") = R.nn.conv2d(lv, R.const([[[[1.0, 2.0]]], [[[3.0, 4.0]]]], "float32"), strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv1: R.Tensor((2, 1, 1), dtype="float32") = R.expand_dims(R.const([0.5, -0.5], "float32"), axis=[1, 2])
            lv2: R.Tensor((n, h, w, 2), dtype="float32") = R.add(lv0, R.const([0.5, -0.5], "float32"))
            gv: R.Tensor((n, h, w, 2), dtype="float32") = R.nn.relu(lv2)
            gv_1: R.Tensor((n, 2, h, w), dtype="float32") = R.permute_dims(gv, axes=[0, 3, 1, 2])
            R.output(gv_1)
        return gv_1
