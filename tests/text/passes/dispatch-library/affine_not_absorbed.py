# PASSES: dispatch-library
# CHECKS: what the affine absorption must leave alone: a multiply by a non-constant scalar, an add of a scalar constant to a convolution result that is also returned (used twice), a one-element constant of higher rank than the output (it would broadcast the result to rank 5), a constant divided by the result; each convolution is dispatched alone with no post-op
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), s: R.Tensor((), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")):
        with R.dataflow():
            lv0 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]], "float32"))
            gv0 = R.multiply(lv0, s)
            gv1 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[5.0]]]], "float32"))
            gv2 = R.add(gv1, R.const(1.0, "float32"))
            lv2 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[6.0]]]], "float32"))
            gv3 = R.multiply(lv2, R.const([[[[[2.0]]]]], "float32"))
            lv3 = R.nn.conv2d(x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[7.0]]]], "float32"))
            gv4 = R.divide(R.const(1.0, "float32"), lv3)
            R.output(gv0, gv1, gv2, gv3, gv4)
        return (gv0, gv1, gv2, gv3, gv4)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), s: R.Tensor((), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")):
        with R.dataflow():
            lv0 = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str(""), R.prim_value(1)), out_sinfo=R.Tensor((1, 2, 4, 4), dtype="float32"))
            gv0: R.Tensor((1, 2, 4, 4), dtype="float32") = R.multiply(lv0, s)
            gv1 = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[5.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str(""), R.prim_value(1)), out_sinfo=R.Tensor((1, 2, 4, 4), dtype="float32"))
            gv2: R.Tensor((1, 2, 4, 4), dtype="float32") = R.add(gv1, R.const(1.0, "float32"))
            lv2 = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[6.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str(""), R.prim_value(1)), out_sinfo=R.Tensor((1, 2, 4, 4), dtype="float32"))
            gv3: R.Tensor((1, 1, 2, 4, 4), dtype="float32") = R.multiply(lv2, R.const([[[[[2.0]]]]], "float32"))
            lv3 = R.call_dps_packed("rlx.dnnl.conv2d", (x, R.const([[[[1.0]], [[2.0]]], [[[3.0]], [[7.0]]]], "float32"), R.shape([1, 1, 0, 0, 0, 0, 1, 1, 1]), R.str(""), R.prim_value(1)), out_sinfo=R.Tensor((1, 2, 4, 4), dtype="float32"))
            gv4: R.Tensor((1, 2, 4, 4), dtype="float32") = R.divide(R.const(1.0, "float32"), lv3)
            R.output(gv0, gv1, gv2, gv3, gv4)
        return (gv0, gv1, gv2, gv3, gv4)
