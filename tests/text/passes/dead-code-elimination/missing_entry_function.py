# PASSES: dead-code-elimination{entry-functions=decode}
# CHECKS: naming an entry function the module does not have is an error
# ERROR: entry function 'decode' is not in the module
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        y = R.add(x, x)
        return y
