# PASSES: legalize-ops
# CHECKS: a provable shape mismatch between where's operands is reported while building the module, naming the op and the shapes
# ERROR: where: cannot broadcast shapes (n, 1), (n, 4) and (3,)
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor(("n", 1), dtype="bool"), x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((3,), dtype="float32")):
        n = T.int64()
        z = R.where(c, x, y)
        return z
