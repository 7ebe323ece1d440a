# ERROR: 8:13: nn.attention: head dims differ: query and key have shapes (b, s, 8, 64) and (b, t, 8, 32)
@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor(("b", "s", 8, 64), dtype="float32"), k: R.Tensor(("b", "t", 8, 32), dtype="float32"), v: R.Tensor(("b", "t", 8, 32), dtype="float32")):
        b = T.int64()
        s = T.int64()
        y = R.nn.attention(q, k, v)
        return y
