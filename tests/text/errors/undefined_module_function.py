# ERROR: 7:13: module 'Module' has no function 'nope'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        cls = Module
        y = cls.nope(x)
        return y
