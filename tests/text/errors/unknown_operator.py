# ERROR: 6:13: unknown operator 'R.foo'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        y = R.foo(x)
        return y
