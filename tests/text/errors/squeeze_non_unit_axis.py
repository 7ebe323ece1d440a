# ERROR: 7:13: squeeze: cannot squeeze axis 1 of a tensor of shape (n, 3): its size is 3, not 1
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")):
        n = T.int64()
        y = R.squeeze(x, axis=[1])
        return y
