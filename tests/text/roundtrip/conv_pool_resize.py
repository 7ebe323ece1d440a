# Convolutions, pooling and resize2d with symbolic batch and spatial sizes.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def conv(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), w1: R.Tensor((16, 3, 3, 3), dtype="float32"), w2: R.Tensor((16, 8, 3, 3), dtype="float32"), x1: R.Tensor(("n", 3, 10), dtype="float32"), w3: R.Tensor((4, 3, 3), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        lv = R.nn.conv2d(x, w1, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
        lv1 = R.nn.conv2d_transpose(lv, w2, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1], dilation=[1, 1], groups=2, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype="float32")
        lv2 = R.nn.conv1d(x1, w3, strides=[1], padding=[1, 1], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="void")
        gv = (lv1, lv2)
        return gv

    @R.function
    def pool(x: R.Tensor(("n", 64, "h", 112), dtype="float32"), y: R.Tensor((2, 8, 8, 3), dtype="float32")):
        n = T.int64()
        h = T.int64()
        lv = R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
        lv1 = R.nn.avg_pool2d(lv, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=True, count_include_pad=True, layout="NCHW", out_layout="NCHW")
        lv2 = R.nn.adaptive_avg_pool2d(lv1, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
        lv3 = R.image.resize2d(y, R.shape([16, 16]), roi=[T.float32(0), T.float32(0), T.float32(0), T.float32(0)], layout="NHWC", method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="round", cubic_alpha=-0.5, cubic_exclude=0, extrapolation_value=0, out_dtype="void")
        gv = (lv2, lv3)
        return gv
