# PASSES: convert-layout
# CHECKS: broadcast operands of an NHWC value: a (C, 1, 1) parameter is expanded to rank 4 and permuted, a (1, C, 1, 1) constant is permuted at compile time to (1, 1, 1, C), a (W,) parameter broadcasting along the original last axis becomes (1, 1, W, 1), a scalar stays; softmax over C gets axis 3; a full-rank parameter is permuted to NHWC
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, 3, 3), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32"), v: R.Tensor((2, 1, 1), dtype="float32"), u: R.Tensor((3,), dtype="float32")) -> R.Tensor(("n", 2, 3, 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.add(lv0, v)
            lv2 = R.multiply(R.const([[[[0.5]], [[2.0]]]], "float32"), lv1)
            lv3 = R.subtract(lv2, u)
            lv4 = R.divide(lv3, R.const(3.0, "float32"))
            lv5 = R.nn.softmax(lv4, axis=1)
            gv = R.maximum(lv5, x)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2, 3, 3), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32"), v: R.Tensor((2, 1, 1), dtype="float32"), u: R.Tensor((3,), dtype="float32")) -> R.Tensor(("n", 2, 3, 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 3, 3, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv_1: R.Tensor((2, 1, 1, 2), dtype="float32") = R.permute_dims(k, axes=[0, 2, 3, 1])
            lv0: R.Tensor((n, 3, 3, 2), dtype="float32") = R.nn.conv2d(lv, lv_1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="void")
            lv_2: R.Tensor((1, 2, 1, 1), dtype="float32") = R.expand_dims(v, axis=[0])
            lv_3: R.Tensor((1, 1, 1, 2), dtype="float32") = R.permute_dims(lv_2, axes=[0, 2, 3, 1])
            lv1: R.Tensor((n, 3, 3, 2), dtype="float32") = R.add(lv0, lv_3)
            lv2: R.Tensor((n, 3, 3, 2), dtype="float32") = R.multiply(R.const([[[[0.5, 2.0]]]], "float32"), lv1)
            lv_4: R.Tensor((1, 1, 1, 3), dtype="float32") = R.expand_dims(u, axis=[0, 1, 2])
            lv_5: R.Tensor((1, 1, 3, 1), dtype="float32") = R.permute_dims(lv_4, axes=[0, 2, 3, 1])
            lv3: R.Tensor((n, 3, 3, 2), dtype="float32") = R.subtract(lv2, lv_5)
            lv4: R.Tensor((n, 3, 3, 2), dtype="float32") = R.divide(lv3, R.const(3.0, "float32"))
            lv5: R.Tensor((n, 3, 3, 2), dtype="float32") = R.nn.softmax(lv4, axis=3)
            gv: R.Tensor((n, 3, 3, 2), dtype="float32") = R.maximum(lv5, lv)
            gv_1: R.Tensor((n, 2, 3, 3), dtype="float32") = R.permute_dims(gv, axes=[0, 3, 1, 2])
            R.output(gv_1)
        return gv_1
