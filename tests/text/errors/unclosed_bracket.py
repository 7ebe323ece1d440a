# ERROR: 5:48: expected ')' to close '(' at 5:13, found ':'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"):
        return x
