# PASSES: dispatch-library
# CHECKS: scalar affine steps after a nonlinearity become oneDNN eltwise_linear post-ops, consecutive ones merged (relu, * 0.5, + 0.25 -> "linear:0.5:0.25"; sigmoid, x * 1 (the identity: no step), 2 * x, x - 1 -> "linear:2:-1"); with a non-constant weight a scalar multiply right after the convolution cannot be folded and is a "linear" post-op too; the matmul's scalar divide after its bias is folded into its constant weight and bias
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32"), a: R.Tensor(("m", 2), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, "h", "w"), dtype="float32"), R.Tensor(("m", 2), dtype="float32")):
        h = T.int64()
        m = T.int64()
        w = T.int64()
        with R.dataflow():
            lv0 = R.nn.conv2d(x, k)
            lv1 = R.multiply(lv0, R.const(3.0, "float32"))
            lv2 = R.nn.relu(lv1)
            lv3 = R.multiply(lv2, R.const([0.5], "float32"))
            lv4 = R.add(R.const(0.25, "float32"), lv3)
            lv5 = R.sigmoid(lv4)
            lv5b = R.multiply(lv5, R.const(1.0, "float32"))
            lv6 = R.multiply(R.const(2.0, "float32"), lv5b)
            gv0 = R.subtract(lv6, R.const([[[[1.0]]]], "float32"))
            lv7 = R.matmul(a, R.const([[1.0, 2.0], [3.0, 4.0]], "float32"))
            lv8 = R.add(lv7, R.const([1.0, -1.0], "float32"))
            gv1 = R.divide(lv8, R.const(2.0, "float32"))
            R.output(gv0, gv1)
        return (gv0, gv1)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, "h", "w"), dtype="float32"), k: R.Tensor((2, 2, 1, 1), dtype="float32"), a: R.Tensor(("m", 2), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, "h", "w"), dtype="float32"), R.Tensor(("m", 2), dtype="float32")):
        h = T.int64()
        m = T.int64()
        w = T.int64()
        with R.dataflow():
            gv0: R.Tensor((1, 2, h, w), dtype="float32") = R.call_dps_packed("rlx.dnnl.conv2d", (x, k, R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str("linear:3:0;relu;linear:0.5:0.25;sigmoid;linear:2:-1"), R.prim_value(0)), out_sinfo=R.Tensor((1, 2, h, w), dtype="float32"))
            gv1: R.Tensor((m, 2), dtype="float32") = R.call_dps_packed("rlx.dnnl.matmul", (a, R.const([[0.5, 1.0], [1.5, 2.0]], "float32"), R.str("bias"), R.prim_value(1), R.const([0.5, -0.5], "float32")), out_sinfo=R.Tensor((m, 2), dtype="float32"))
            R.output(gv0, gv1)
        return (gv0, gv1)
