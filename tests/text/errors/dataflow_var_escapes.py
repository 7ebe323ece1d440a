# ERROR: 9:19: 'lv' is a dataflow variable that is not visible outside its dataflow block; list it in R.output(...)
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            lv = R.exp(x)
            R.output()
        y = R.add(lv, x)
        return y
