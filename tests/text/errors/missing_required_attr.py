# ERROR: 6:13: R.astype: missing required argument 'dtype'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.astype(x)
        return y
