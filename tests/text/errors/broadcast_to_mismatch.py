# ERROR: 7:13: broadcast_to: cannot broadcast a tensor of shape (n, 3) to shape (n, 4)
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")):
        n = T.int64()
        y = R.broadcast_to(x, R.shape([n, 4]))
        return y
