# ERROR: 5:50: duplicate parameter 'x'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), x: R.Tensor((4,), dtype="float32")):
        return x
