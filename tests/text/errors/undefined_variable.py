# ERROR: 6:22: undefined variable 'w'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.add(x, w)
        return y
