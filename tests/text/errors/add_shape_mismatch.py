# ERROR: 7:18: cannot broadcast shapes (n, 4) and (n, 5)
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 5), dtype="float32")):
        with R.dataflow():
            lv = R.add(x, y)
            R.output(lv)
        return lv
