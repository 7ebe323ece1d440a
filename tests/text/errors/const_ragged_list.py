# ERROR: 6:34: R.const: a nested list must be rectangular
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        c = R.const([[1.0, 2.0], [3.0]], "float32")
        return x
