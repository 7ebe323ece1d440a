# PASSES: convert-layout
# CHECKS: resize2d follows NHWC (its layout attr), a match_cast of an NHWC value checks the permuted shape (1, h2, w2, 2) and keeps the layout for the strided conv after it; the function parameter x is permuted once and that version reused by the add
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32")) -> R.Tensor((1, 2, "h", "w"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.image.resize2d(lv0, R.shape([h * 2, w * 2]), method="nearest_neighbor")
            lv2 = R.match_cast(lv1, R.Tensor((1, 2, "h2", "w2"), dtype="float32"))
            lv3 = R.nn.conv2d(lv2, k, strides=[2, 2])
            gv = R.add(lv3, x)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32")) -> R.Tensor((1, 2, "h", "w"), dtype="float32"):
        h = T.int64()
        w = T.int64()
        h2 = T.int64()
        w2 = T.int64()
        with R.dataflow():
            lv: R.Tensor((1, h, w, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv_1: R.Tensor((2, 1, 1, 2), dtype="float32") = R.permute_dims(k, axes=[0, 2, 3, 1])
            lv0: R.Tensor((1, h, w, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv1: R.Tensor((1, h * 2, w * 2, 2), dtype="float32") = R.image.resize2d(lv0, R.shape([h * 2, w * 2]), roi=[T.float32(0.0), T.float32(0.0), T.float32(0.0), T.float32(0.0)], layout="NHWC", method="nearest_neighbor", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.5, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            lv2: R.Tensor((1, h2, w2, 2), dtype="float32") = R.match_cast(lv1, R.Tensor((1, h2, w2, 2), dtype="float32"))
            lv3: R.Tensor((1, (h2 + 1) // 2, (w2 + 1) // 2, 2), dtype="float32") = R.nn.conv2d(lv2, lv_1, strides=[2, 2], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            gv: R.Tensor(dtype="float32", ndim=4) = R.add(lv3, lv)
            gv_1: R.Tensor(dtype="float32", ndim=4) = R.permute_dims(gv, axes=[0, 3, 1, 2])
            R.output(gv_1)
        return gv_1
