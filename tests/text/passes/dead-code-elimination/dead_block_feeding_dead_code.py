# PASSES: dead-code-elimination
# CHECKS: a block whose only user is dead code in a later block is removed with it (TVM test_unused_dfb2)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), w: R.Tensor(("m", "k"), dtype="float32")):
        with R.dataflow():
            lv0 = R.permute_dims(x, axes=[1, 0])
            R.output(lv0)
        gv_x = R.astype(x, dtype="float16")
        gv_w = R.astype(w, dtype="float16")
        with R.dataflow():
            lv1 = R.matmul(gv_x, gv_w)
            lv2 = R.nn.relu(lv1)
            lv3 = R.permute_dims(lv0, axes=[1, 0])
            R.output(lv2)
        return lv2

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), w: R.Tensor(("m", "k"), dtype="float32")):
        gv_x = R.astype(x, dtype="float16")
        gv_w = R.astype(w, dtype="float16")
        with R.dataflow():
            lv1 = R.matmul(gv_x, gv_w)
            lv2 = R.nn.relu(lv1)
            R.output(lv2)
        return lv2
