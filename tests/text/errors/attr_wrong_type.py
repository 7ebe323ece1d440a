# ERROR: 6:41: R.sum: 'keepdims' expects True or False, got the integer 1
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")):
        y = R.sum(x, axis=[0], keepdims=1)
        return y
