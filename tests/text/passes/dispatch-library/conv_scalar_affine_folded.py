# PASSES: dispatch-library
# CHECKS: scalar multiply / add / subtract / divide directly after the convolution (constants of shape (1,) and (), either operand order) are folded at compile time into the constant weight and bias: conv * 2 + 0.5, then 1 - x, then / 4 gives weight * -0.5 and bias (1 - 0.5 - 2 * b) / 4 for the per-channel bias b; the relu after them is the only post-op
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w - 1"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0, 2.0]], [[4.0, -8.0]]], [[[0.5, 0.25]], [[2.0, 6.0]]]], "float32"))
            lv1 = R.add(lv0, R.const([[[1.0]], [[-1.0]]], "float32"))
            lv2 = R.multiply(R.const([2.0], "float32"), lv1)
            lv3 = R.add(lv2, R.const(0.5, "float32"))
            lv4 = R.subtract(R.const([1.0], "float32"), lv3)
            lv5 = R.divide(lv4, R.const(4.0, "float32"))
            gv = R.nn.relu(lv5)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2, "h", "w"), dtype="float32")) -> R.Tensor(("n", 2, "h", "w - 1"), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            gv: R.Tensor((n, 2, h, w - 1), dtype="float32") = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[-0.5, -1.0]], [[-2.0, 4.0]]], [[[-0.25, -0.125]], [[-1.0, -3.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str("bias;relu"), R.prim_value(1), R.const([-0.375, 0.625], "float32")), out_sinfo=R.Tensor((n, 2, h, w - 1), dtype="float32"))
            R.output(gv)
        return gv
