# ERROR: 8:13: concat: cannot concatenate tensors of shapes (n, 4) and (n, 5) along axis 0
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 5), dtype="float32")):
        n = T.int64()
        t = (x, y)
        z = R.concat(t, axis=0)
        return z
