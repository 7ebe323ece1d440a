# ERROR: 12:13: R.call_tir needs out_sinfo=
@I.ir_module
class Module:
    @T.prim_func
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        cls = Module
        y = R.call_tir(cls.copy, (x,))
        return y
