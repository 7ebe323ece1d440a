# PASSES: legalize-ops
# CHECKS: matmul operands whose reduction dimensions provably differ are a CompileError naming both shapes
# ERROR: matmul: reduction dimensions differ: x1 has shape (n, 4), x2 has shape (5, 3)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((5, 3), dtype="float32")):
        n = T.int64()
        z = R.matmul(x, w)
        return z
