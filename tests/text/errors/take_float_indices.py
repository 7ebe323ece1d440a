# ERROR: 6:16: take: argument 'indices' must have an integer dtype, got float32
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32"), i: R.Tensor((3,), dtype="float32")):
        return R.take(x, i, axis=0)
