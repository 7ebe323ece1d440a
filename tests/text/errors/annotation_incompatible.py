# ERROR: 6:9: cannot bind a value of Tensor((4,), float32) to a variable annotated Tensor((3,), float32)
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y: R.Tensor((3,), dtype="float32") = R.add(x, x)
        return y
