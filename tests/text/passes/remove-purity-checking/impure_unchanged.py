# PASSES: remove-purity-checking
# CHECKS: an impure function gets no attribute and is unchanged
@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        _ = R.call_packed("my_lib.log", x, sinfo_args=(R.Object,))
        return x

@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        _: R.Object = R.call_packed("my_lib.log", x, sinfo_args=(R.Object,))
        return x
