# PASSES: convert-layout
# CHECKS: conv -> max_pool2d -> conv stays NHWC (the pool's layout becomes "NHWC"), a non-constant kernel is permuted once for both convs, symbolic h, w are permuted exactly
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 3, 3), dtype="float32")) -> R.Tensor((1, 2, "(h - 2) // 2 - 2", "(w - 2) // 2 - 2"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.nn.max_pool2d(lv0, pool_size=[2, 2], strides=[2, 2])
            gv = R.nn.conv2d(lv1, k)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 3, 3), dtype="float32")) -> R.Tensor((1, 2, "(h - 2) // 2 - 2", "(w - 2) // 2 - 2"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv: R.Tensor((1, h, w, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv_1: R.Tensor((2, 3, 3, 2), dtype="float32") = R.permute_dims(k, axes=[0, 2, 3, 1])
            lv0: R.Tensor((1, h - 2, w - 2, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv1: R.Tensor((1, h // 2 - 1, w // 2 - 1, 2), dtype="float32") = R.nn.max_pool2d(lv0, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NHWC", out_layout=None)
            gv: R.Tensor((1, h // 2 - 3, w // 2 - 3, 2), dtype="float32") = R.nn.conv2d(lv1, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            gv_1: R.Tensor((1, 2, h // 2 - 3, w // 2 - 3), dtype="float32") = R.permute_dims(gv, axes=[0, 3, 1, 2])
            R.output(gv_1)
        return gv_1
