# PASSES: fuse-ops-by-pattern
# CHECKS: the bias add is also a dataflow output, so matmul + add + relu cannot be taken (the add's value would leave the group); the shorter alternative matmul + add, rooted at the add, is taken and relu stays outside
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 16), dtype="float32"), R.Tensor(("n", 16), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, bias)
            gv = R.nn.relu(lv1)
            R.output(lv1, gv)
        return (lv1, gv)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 16), dtype="float32"), R.Tensor(("n", 16), dtype="float32")):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            lv1: R.Tensor((n, 16), dtype="float32") = cls.fused_relax_matmul_relax_add(x, w, bias)
            gv: R.Tensor((n, 16), dtype="float32") = R.nn.relu(lv1)
            R.output(lv1, gv)
        return (lv1, gv)

    @R.function(private=True)
    def fused_relax_matmul_relax_add(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"Composite": "matmul_epilogue", "Primitive": 1})
        with R.dataflow():
            lv0: R.Tensor((n, 16), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((n, 16), dtype="float32") = R.add(lv0, bias)
            R.output(lv1)
        return lv1
