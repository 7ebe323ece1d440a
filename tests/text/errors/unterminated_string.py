# ERROR: 5:*: string
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32)):
        return x
