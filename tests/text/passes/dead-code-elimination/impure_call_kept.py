# PASSES: dead-code-elimination
# CHECKS: an unused binding of an impure call is kept outside dataflow blocks, and keeps its inputs alive; unused pure bindings go
@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        lv0 = R.add(x, x)
        lv1 = R.multiply(x, x)
        _ = R.call_packed("my_lib.log_tensor", lv0, sinfo_args=(R.Object,))
        lv2 = R.nn.relu(lv1)
        return x

@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        lv0 = R.add(x, x)
        _ = R.call_packed("my_lib.log_tensor", lv0, sinfo_args=(R.Object,))
        return x
