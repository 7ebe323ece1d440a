# PASSES: dead-code-elimination
# CHECKS: dead bindings inside the branches of an If are removed
@I.ir_module
class Before:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        if cond:
            lv0 = R.add(x, x)
            lv1 = R.multiply(x, x)
            y = lv0
        else:
            lv2 = R.multiply(x, x)
            lv3 = R.nn.relu(lv2)
            y = lv2
        return y

@I.ir_module
class Expected:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        if cond:
            lv0 = R.add(x, x)
            y = lv0
        else:
            lv2 = R.multiply(x, x)
            y = lv2
        return y
