# ERROR: 5:38: invalid dtype 'float33'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float33")):
        return x
