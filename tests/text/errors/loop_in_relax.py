# ERROR: 6:9: loops are not allowed in a Relax function
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        for i in range(4):
            x = R.exp(x)
        return x
