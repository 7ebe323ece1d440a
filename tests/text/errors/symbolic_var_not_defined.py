# ERROR: 7:22: symbolic variable 'm' is not defined here
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        m = T.int64()
        y: R.Tensor((m,), dtype="float32") = R.exp(x)
        return y
