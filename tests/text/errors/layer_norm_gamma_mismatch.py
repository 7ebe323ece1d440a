# ERROR: 6:13: nn.layer_norm: argument 'gamma' of shape (32,) does not match the data of shape (n, 64)
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 64), dtype="float32"), g: R.Tensor((32,), dtype="float32"), b: R.Tensor((64,), dtype="float32")):
        y = R.nn.layer_norm(x, g, b, axes=[-1])
        return y
