# PASSES: convert-layout
# CHECKS: a squeeze-and-excitation block (mean over H, W with keepdims -> conv -> hardsigmoid -> multiply with the NHWC tensor) keeps NHWC, concat's axis 1 becomes 3, a sum over H without keepdims gives (N, W, C) which is permuted back before the reshape that needs the original layout
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32")) -> R.Tensor((1, 16), dtype="float32"):
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.mean(lv0, axis=[2, 3], keepdims=True)
            lv2 = R.nn.conv2d(lv1, k)
            lv3 = R.multiply(lv2, R.const(0.2, "float32"))
            lv4 = R.add(lv3, R.const(0.5, "float32"))
            lv5 = R.clip(lv4, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            lv6 = R.multiply(lv0, lv5)
            lv7 = R.concat((lv6, lv0), axis=1)
            lv8 = R.sum(lv7, axis=[2])
            gv = R.reshape(lv8, R.shape([1, 16]))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32")) -> R.Tensor((1, 16), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 4, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv_1: R.Tensor((2, 1, 1, 2), dtype="float32") = R.permute_dims(k, axes=[0, 2, 3, 1])
            lv0: R.Tensor((1, 4, 4, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv1: R.Tensor((1, 1, 1, 2), dtype="float32") = R.mean(lv0, axis=[1, 2], keepdims=True)
            lv2: R.Tensor((1, 1, 1, 2), dtype="float32") = R.nn.conv2d(lv1, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv3: R.Tensor((1, 1, 1, 2), dtype="float32") = R.multiply(lv2, R.const(0.2, "float32"))
            lv4: R.Tensor((1, 1, 1, 2), dtype="float32") = R.add(lv3, R.const(0.5, "float32"))
            lv5: R.Tensor((1, 1, 1, 2), dtype="float32") = R.clip(lv4, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            lv6: R.Tensor((1, 4, 4, 2), dtype="float32") = R.multiply(lv0, lv5)
            lv7: R.Tensor((1, 4, 4, 4), dtype="float32") = R.concat((lv6, lv0), axis=3)
            lv8: R.Tensor((1, 4, 4), dtype="float32") = R.sum(lv7, axis=[1], keepdims=False)
            lv_2: R.Tensor((1, 4, 4), dtype="float32") = R.permute_dims(lv8, axes=[0, 2, 1])
            gv: R.Tensor((1, 16), dtype="float32") = R.reshape(lv_2, R.shape([1, 16]))
            R.output(gv)
        return gv
