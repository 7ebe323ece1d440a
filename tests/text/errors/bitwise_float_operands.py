# ERROR: 6:13: right_shift: expects integer operands, got float32
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.right_shift(x, x)
        return y
