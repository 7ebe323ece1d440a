# PASSES: fuse-ops-by-pattern{patterns=matmul_epilogue}
# CHECKS: matmul + bias add + relu and matmul + bias add (the optional activation absent) become composite functions (Composite = "matmul_epilogue", Primitive = 1) named after their operators; a matmul whose result is also used elsewhere is not taken (its bias add neither); symbolic batch
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w1: R.Tensor((8, 16), dtype="float32"), b1: R.Tensor((16,), dtype="float32"), w2: R.Tensor((16, 4), dtype="float32"), b2: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv0 = R.matmul(x, w1)
            lv1 = R.add(lv0, b1)
            lv2 = R.nn.relu(lv1)
            lv3 = R.matmul(lv2, w2)
            lv4 = R.add(lv3, b2)
            lv5 = R.matmul(lv2, w2)
            lv6 = R.add(lv5, b2)
            lv7 = R.multiply(lv5, lv6)
            R.output(lv4, lv7)
        return (lv4, lv7)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w1: R.Tensor((8, 16), dtype="float32"), b1: R.Tensor((16,), dtype="float32"), w2: R.Tensor((16, 4), dtype="float32"), b2: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            lv2: R.Tensor((n, 16), dtype="float32") = cls.fused_relax_matmul_relax_add_relax_nn_relu(x, w1, b1)
            lv4: R.Tensor((n, 4), dtype="float32") = cls.fused_relax_matmul_relax_add(lv2, w2, b2)
            lv5: R.Tensor((n, 4), dtype="float32") = R.matmul(lv2, w2, out_dtype="void")
            lv6: R.Tensor((n, 4), dtype="float32") = R.add(lv5, b2)
            lv7: R.Tensor((n, 4), dtype="float32") = R.multiply(lv5, lv6)
            R.output(lv4, lv7)
        return (lv4, lv7)

    @R.function(private=True)
    def fused_relax_matmul_relax_add_relax_nn_relu(x: R.Tensor(("n", 8), dtype="float32"), w1: R.Tensor((8, 16), dtype="float32"), b1: R.Tensor((16,), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"Composite": "matmul_epilogue", "Primitive": 1})
        with R.dataflow():
            lv0: R.Tensor((n, 16), dtype="float32") = R.matmul(x, w1, out_dtype="void")
            lv1: R.Tensor((n, 16), dtype="float32") = R.add(lv0, b1)
            lv2: R.Tensor((n, 16), dtype="float32") = R.nn.relu(lv1)
            R.output(lv2)
        return lv2

    @R.function(private=True)
    def fused_relax_matmul_relax_add(lv2: R.Tensor(("n", 16), dtype="float32"), w2: R.Tensor((16, 4), dtype="float32"), b2: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"Composite": "matmul_epilogue", "Primitive": 1})
        with R.dataflow():
            lv3: R.Tensor((n, 4), dtype="float32") = R.matmul(lv2, w2, out_dtype="void")
            lv4: R.Tensor((n, 4), dtype="float32") = R.add(lv3, b2)
            R.output(lv4)
        return lv4
