# PASSES: dead-code-elimination
# CHECKS: a chain of dead pure bindings outside dataflow blocks dies entirely in one run
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        a = R.add(x, x)
        b = R.multiply(a, a)
        c = R.nn.relu(b)
        d = R.permute_dims(c, axes=[1, 0])
        e = R.subtract(x, x)
        return e

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        e = R.subtract(x, x)
        return e
