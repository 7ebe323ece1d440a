# ERROR: 8:16: is a dataflow variable that is not visible outside its dataflow block
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            gv = R.exp(x)
        return gv
