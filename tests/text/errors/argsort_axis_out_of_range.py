# ERROR: 6:13: argsort: axis 2 is out of range for a tensor of rank 2
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, "n"), dtype="float32")):
        y = R.argsort(x, axis=2)
        return y
