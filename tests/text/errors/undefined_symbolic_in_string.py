# ERROR: 5:27: undefined symbolic variable 'k'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("k * 2", 4), dtype="float32")):
        return x
