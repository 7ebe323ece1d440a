# ERROR: 6:13: nn.conv2d: the data's 4 input channels do not match the weight
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4, 8, 8), dtype="float32"), w: R.Tensor((6, 3, 3, 3), dtype="float32")):
        y = R.nn.conv2d(x, w)
        return y
