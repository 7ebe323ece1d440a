# ERROR: 5:65: undefined symbolic variable 'm'
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
        return x
