# PASSES: convert-layout
# CHECKS: a permute_dims that turns the NHWC result of the pass back into what the program wanted (NCHW -> NHWC) disappears: the output is the relu itself
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32")) -> R.Tensor((1, "h", "w", 2), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.nn.relu(lv0)
            gv = R.permute_dims(lv1, axes=[0, 2, 3, 1])
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32")) -> R.Tensor((1, "h", "w", 2), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv: R.Tensor((1, h, w, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv_1: R.Tensor((2, 1, 1, 2), dtype="float32") = R.permute_dims(k, axes=[0, 2, 3, 1])
            lv0: R.Tensor((1, h, w, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv1: R.Tensor((1, h, w, 2), dtype="float32") = R.nn.relu(lv0)
            gv: R.Tensor((1, h, w, 2), dtype="float32") = lv1
            R.output(gv)
        return gv
