# ERROR: 2:7: class 'Module' is not decorated with @I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        return x
