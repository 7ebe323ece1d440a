# ERROR: 9:7: expected one @I.ir_module class, found a second one
@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        return x

@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        return x
