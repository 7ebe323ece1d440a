# ERROR: 6:13: topk: ret_type must be "both", "values" or "indices", got "all"
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, "n"), dtype="float32")):
        y = R.topk(x, k=2, ret_type="all")
        return y
