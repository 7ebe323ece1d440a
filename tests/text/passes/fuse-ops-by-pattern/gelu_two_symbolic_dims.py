# PASSES: fuse-ops-by-pattern
# CHECKS: the default table (matmul_epilogue) takes matmul + bias + gelu over two symbolic dims (batch b, sequence s); the parameters and result of the composite function keep b and s
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("b", "s", 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tensor(("b", "s", 16), dtype="float32"):
        b = T.int64()
        s = T.int64()
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, bias)
            gv = R.nn.gelu(lv1)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("b", "s", 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tensor(("b", "s", 16), dtype="float32"):
        b = T.int64()
        s = T.int64()
        cls = Expected
        with R.dataflow():
            gv: R.Tensor((b, s, 16), dtype="float32") = cls.fused_relax_matmul_relax_add_relax_nn_gelu(x, w, bias)
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_relax_matmul_relax_add_relax_nn_gelu(x: R.Tensor(("b", "s", 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32"), bias: R.Tensor((16,), dtype="float32")) -> R.Tensor(("b", "s", 16), dtype="float32"):
        b = T.int64()
        s = T.int64()
        R.func_attr({"Composite": "matmul_epilogue", "Primitive": 1})
        with R.dataflow():
            lv0: R.Tensor((b, s, 16), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((b, s, 16), dtype="float32") = R.add(lv0, bias)
            gv: R.Tensor((b, s, 16), dtype="float32") = R.nn.gelu(lv1)
            R.output(gv)
        return gv
