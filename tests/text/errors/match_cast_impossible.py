# ERROR: 6:13: match_cast can never succeed
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.match_cast(x, R.Shape([4]))
        return y
