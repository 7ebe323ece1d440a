# ERROR: 6:22: R.sum has no argument 'axes'; expected one of: axis, keepdims
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")):
        y = R.sum(x, axes=[1])
        return y
