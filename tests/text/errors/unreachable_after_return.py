# ERROR: 7:9: unreachable statement after return
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        return x
        y = R.exp(x)
