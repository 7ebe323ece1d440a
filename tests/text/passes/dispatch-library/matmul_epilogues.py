# PASSES: dispatch-library
# CHECKS: matmul over symbolic b, s with a constant bias and ONNX's HardSwish composition (x used twice) becomes one rlx.dnnl.matmul call with "bias;hard_swish"; the weight is a parameter, so b_is_const is 0; the second matmul's value is used twice (relu and the output), so it is dispatched alone and the relu stays
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("b", "s", 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32")) -> R.Tuple(R.Tensor(("b", "s", 3), dtype="float32"), R.Tensor(("b", "s", 3), dtype="float32"), R.Tensor(("b", "s", 3), dtype="float32")):
        b = T.int64()
        s = T.int64()
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, R.const([1.0, 2.0, 3.0], "float32"))
            lv2 = R.add(lv1, R.const(3.0, "float32"))
            lv3 = R.clip(lv2, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            lv4 = R.multiply(lv1, lv3)
            gv0 = R.divide(lv4, R.const(6.0, "float32"))
            gv1 = R.matmul(x, w)
            gv2 = R.nn.relu(gv1)
            R.output(gv0, gv1, gv2)
        return (gv0, gv1, gv2)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("b", "s", 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32")) -> R.Tuple(R.Tensor(("b", "s", 3), dtype="float32"), R.Tensor(("b", "s", 3), dtype="float32"), R.Tensor(("b", "s", 3), dtype="float32")):
        b = T.int64()
        s = T.int64()
        with R.dataflow():
            gv0: R.Tensor((b, s, 3), dtype="float32") = R.call_dps_packed("rlx.dnnl.matmul", (x, w, R.str("bias;hard_swish"), R.prim_value(0), R.const([1.0, 2.0, 3.0], "float32")), out_sinfo=R.Tensor((b, s, 3), dtype="float32"))
            gv1: R.Tensor((b, s, 3), dtype="float32") = R.call_dps_packed("rlx.dnnl.matmul", (x, w, R.str(""), R.prim_value(0)), out_sinfo=R.Tensor((b, s, 3), dtype="float32"))
            gv2: R.Tensor((b, s, 3), dtype="float32") = R.nn.relu(gv1)
            R.output(gv0, gv1, gv2)
        return (gv0, gv1, gv2)
