# ERROR: 14:34: R.call_tir: expected the arguments as a tuple of tensors, e.g. (x,), got a call of R.shape of Shape([4])
@I.ir_module
class Module:
    @T.prim_func
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        cls = Module
        y = R.call_tir(cls.copy, R.shape([4]), out_sinfo=R.Tensor((4,), dtype="float32"))
        return y
