# ERROR: 8:13: (n, 4)
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((5, 3), dtype="float32")):
        n = T.int64()
        y = R.exp(x)
        z = R.matmul(y, w)
        return z
