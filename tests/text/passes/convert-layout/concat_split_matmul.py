# PASSES: convert-layout
# CHECKS: two convs of one input share its permutation; concat and split remap their axis, split's pieces keep NHWC through tuple-get-item, pad permutes its (before, after) pairs, an output goes back to NCHW, and matmul gets its operand back in NCHW
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, 3, 3), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32"), m: R.Tensor((3, 5), dtype="float32")) -> R.Tuple(R.Tensor(("n", 2, 5, 5), dtype="float32"), R.Tensor(("n", 6, 3, 5), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.nn.conv2d(x, k)
            lv2 = R.concat((lv0, lv1), axis=1)
            lv3 = R.split(lv2, indices_or_sections=2, axis=1)
            lv4 = lv3[0]
            lv5 = lv3[1]
            gv0 = R.nn.pad(lv4, pad_width=[0, 0, 0, 0, 1, 1, 2, 0], pad_value=0.0)
            lv6 = R.sigmoid(lv5)
            lv7 = R.nn.conv2d(lv6, k)
            lv8 = R.concat((lv7, lv2), axis=1)
            gv1 = R.matmul(lv8, m)
            R.output(gv0, gv1)
        return (gv0, gv1)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2, 3, 3), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32"), m: R.Tensor((3, 5), dtype="float32")) -> R.Tuple(R.Tensor(("n", 2, 5, 5), dtype="float32"), R.Tensor(("n", 6, 3, 5), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 3, 3, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv_1: R.Tensor((2, 1, 1, 2), dtype="float32") = R.permute_dims(k, axes=[0, 2, 3, 1])
            lv0: R.Tensor((n, 3, 3, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv1: R.Tensor((n, 3, 3, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv2: R.Tensor((n, 3, 3, 4), dtype="float32") = R.concat((lv0, lv1), axis=3)
            lv3: R.Tuple(R.Tensor((n, 3, 3, 2), dtype="float32"), R.Tensor((n, 3, 3, 2), dtype="float32")) = R.split(lv2, indices_or_sections=2, axis=3)
            lv4: R.Tensor((n, 3, 3, 2), dtype="float32") = lv3[0]
            lv5: R.Tensor((n, 3, 3, 2), dtype="float32") = lv3[1]
            gv0: R.Tensor((n, 5, 5, 2), dtype="float32") = R.nn.pad(lv4, pad_width=[0, 0, 1, 1, 2, 0, 0, 0], pad_value=0.0, pad_mode="constant")
            gv0_1: R.Tensor((n, 2, 5, 5), dtype="float32") = R.permute_dims(gv0, axes=[0, 3, 1, 2])
            lv6: R.Tensor((n, 3, 3, 2), dtype="float32") = R.sigmoid(lv5)
            lv7: R.Tensor((n, 3, 3, 2), dtype="float32") = R.nn.conv2d(lv6, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv8: R.Tensor((n, 3, 3, 6), dtype="float32") = R.concat((lv7, lv2), axis=3)
            lv_2: R.Tensor((n, 6, 3, 3), dtype="float32") = R.permute_dims(lv8, axes=[0, 3, 1, 2])
            gv1: R.Tensor((n, 6, 3, 5), dtype="float32") = R.matmul(lv_2, m, out_dtype="void")
            R.output(gv0_1, gv1)
        return (gv0_1, gv1)
