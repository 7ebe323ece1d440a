# ERROR: 8:13: return is not allowed inside a dataflow block
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            y = R.exp(x)
            return y
