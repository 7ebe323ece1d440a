# ERROR: 7:9: R.output(...) is only allowed at the end of a dataflow block
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.exp(x)
        R.output(y)
        return y
