# ERROR: 8:25: R.output: 'x' is not bound in this dataflow block
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            y = R.exp(x)
            R.output(y, x)
        return y
