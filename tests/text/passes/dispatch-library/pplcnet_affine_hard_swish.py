# PASSES: dispatch-library
# CHECKS: PP-LCNetV3's learnable affine block around HardSwish (conv + bias, * a, + b, HardSwish of that value used twice, * c, + d, scalar constants of shape (1,) as the ONNX importer gives them) is one rlx.dnnl.conv2d call: a and b folded into weight (* 2) and bias (2 * bias + 0.5), then "hard_swish;linear:c:d"
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[-0.5]], [[0.25]]]], "float32"))
            lv1 = R.reshape(R.const([0.25, -1.0], "float32"), R.shape([1, 2, 1, 1]))
            lv2 = R.add(lv0, lv1)
            lv3 = R.multiply(R.const([2.0], "float32"), lv2)
            lv4 = R.add(lv3, R.const([0.5], "float32"))
            lv5 = R.add(lv4, R.const(3.0, "float32"))
            lv6 = R.clip(lv5, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            lv7 = R.multiply(lv4, lv6)
            lv8 = R.divide(lv7, R.const(6.0, "float32"))
            lv9 = R.multiply(R.const([0.25], "float32"), lv8)
            gv = R.add(lv9, R.const([-0.125], "float32"))
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
            lv1: R.Tensor((1, 2, 1, 1), dtype="float32") = R.reshape(R.const([0.25, -1.0], "float32"), R.shape([1, 2, 1, 1]))
            gv: R.Tensor((n, 2, h, w), dtype="float32") = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[2.0]], [[4.0]]], [[[-1.0]], [[0.5]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str("bias;hard_swish;linear:0.25:-0.125"), R.prim_value(1), R.const([1.0, -1.5], "float32")), out_sinfo=R.Tensor((n, 2, h, w), dtype="float32"))
            R.output(gv)
        return gv
