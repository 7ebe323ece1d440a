# PASSES: dispatch-library
# CHECKS: what the library cannot take stays for legalize-ops: a float16 conv2d, an NHWC conv2d, a matmul of a 1-d vector, a float16 conv2d_transpose, an NHWC conv2d_transpose; the module is unchanged
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float16"), k: R.Tensor((2, 2, 3, 3), dtype="float16"), y: R.Tensor((1, 5, 5, 2), dtype="float32"), ky: R.Tensor((2, 2, 3, 3), dtype="float32"), v: R.Tensor((4,), dtype="float32"), m: R.Tensor((4, 3), dtype="float32"), t: R.Tensor((1, 2, 3, 3), dtype="float16"), kt: R.Tensor((2, 2, 2, 2), dtype="float16"), kf: R.Tensor((2, 2, 2, 2), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, 3, 3), dtype="float16"), R.Tensor((1, 3, 3, 2), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float16"), R.Tensor((1, 6, 6, 2), dtype="float32")):
        with R.dataflow():
            gv0 = R.nn.conv2d(x, k)
            gv1 = R.nn.conv2d(y, ky, data_layout="NHWC", kernel_layout="OIHW")
            gv2 = R.matmul(v, m)
            gv3 = R.nn.conv2d_transpose(t, kt)
            gv4 = R.nn.conv2d_transpose(y, kf, data_layout="NHWC")
            R.output(gv0, gv1, gv2, gv3, gv4)
        return (gv0, gv1, gv2, gv3, gv4)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float16"), k: R.Tensor((2, 2, 3, 3), dtype="float16"), y: R.Tensor((1, 5, 5, 2), dtype="float32"), ky: R.Tensor((2, 2, 3, 3), dtype="float32"), v: R.Tensor((4,), dtype="float32"), m: R.Tensor((4, 3), dtype="float32"), t: R.Tensor((1, 2, 3, 3), dtype="float16"), kt: R.Tensor((2, 2, 2, 2), dtype="float16"), kf: R.Tensor((2, 2, 2, 2), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, 3, 3), dtype="float16"), R.Tensor((1, 3, 3, 2), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float16"), R.Tensor((1, 6, 6, 2), dtype="float32")):
        with R.dataflow():
            gv0 = R.nn.conv2d(x, k)
            gv1 = R.nn.conv2d(y, ky, data_layout="NHWC", kernel_layout="OIHW")
            gv2 = R.matmul(v, m)
            gv3 = R.nn.conv2d_transpose(t, kt)
            gv4 = R.nn.conv2d_transpose(y, kf, data_layout="NHWC")
            R.output(gv0, gv1, gv2, gv3, gv4)
        return (gv0, gv1, gv2, gv3, gv4)
