# ERROR: 6:13: R.add takes 2 arguments (x1, x2), got 1
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.add(x)
        return y
