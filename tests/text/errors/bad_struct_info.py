# ERROR: 5:17: expected a struct info annotation such as R.Tensor((n, 4), "float32"), got a call of R.Tensr
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensr((4,), dtype="float32")):
        return x
