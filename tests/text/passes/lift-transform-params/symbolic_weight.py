# PASSES: lift-transform-params
# CHECKS: weights with a symbolic size: the chain transpose + scale + cast is lifted, the transformed weight's parameter now defines k; a computation needing the input size n stays
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float16"), w: R.Tensor(("k", 16), dtype="float32")) -> R.Tensor(("n", "k"), dtype="float16"):
        R.func_attr({"num_input": 1})
        n = T.int64()
        k = T.int64()
        with R.dataflow():
            w_t = R.permute_dims(w, axes=[1, 0])
            w_scaled = R.multiply(w_t, R.const(2.0, "float32"))
            w_half = R.astype(w_scaled, "float16")
            y = R.matmul(x, w_half)
            w_rows = R.broadcast_to(R.const(1.0, "float16"), R.shape([n, k]))
            z = R.add(y, w_rows)
            R.output(z)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float16"), w_half: R.Tensor((16, "k"), dtype="float16")) -> R.Tensor(("n", "k"), dtype="float16"):
        R.func_attr({"num_input": 1})
        n = T.int64()
        k = T.int64()
        with R.dataflow():
            y = R.matmul(x, w_half)
            w_rows = R.broadcast_to(R.const(1.0, "float16"), R.shape([n, k]))
            z = R.add(y, w_rows)
            R.output(z)
        return z

    @R.function
    def main_transform_params(params: R.Tuple(R.Tensor(("k", 16), dtype="float32"))) -> R.Tuple(R.Tensor((16, "k"), dtype="float16")):
        R.func_attr({"num_input": 0})
        k = T.int64()
        with R.dataflow():
            lv = params[0]
            w_t = R.permute_dims(lv, axes=[1, 0])
            w_scaled = R.multiply(w_t, R.const(2.0, "float32"))
            w_half = R.astype(w_scaled, "float16")
            gv = (w_half,)
            R.output(gv)
        return gv
