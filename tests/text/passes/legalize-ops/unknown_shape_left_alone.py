# PASSES: legalize-ops
# CHECKS: a call whose operands have no known shape cannot be lowered statically and is left as it is; nothing is added to the module
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), y: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        gv = R.add(x, y)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), y: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        gv = R.add(x, y)
        return gv
