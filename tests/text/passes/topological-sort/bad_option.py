# PASSES: topological-sort{order=random}
# CHECKS: an unknown order is an error naming the allowed values
# ERROR: order must be "depth-first" or "breadth-first", found "random"
@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return A
