# PASSES: fold-constant,dead-code-elimination
# CHECKS: a private PrimFunc whose only call fold-constant evaluated becomes unreachable and is removed; the private symbolic PrimFunc still called on the dynamic input stays
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((3,), "float32"), B: T.Buffer((3,), "float32")):
        for i in range(3):
            with T.block("scale"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * T.float32(2)

    @T.prim_func(private=True)
    def add_row(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 3), "float32")
        B = T.match_buffer(b, (3,), "float32")
        C = T.match_buffer(c, (n, 3), "float32")
        for i, j in T.grid(n, 3):
            with T.block("add_row"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vj]

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            c = R.const([1.0, 2.0, 3.0], "float32")
            s = R.call_tir(cls.scale, (c,), out_sinfo=R.Tensor((3,), dtype="float32"))
            gv = R.call_tir(cls.add_row, (x, s), out_sinfo=R.Tensor((n, 3), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add_row(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 3), "float32")
        B = T.match_buffer(b, (3,), "float32")
        C = T.match_buffer(c, (n, 3), "float32")
        for i, j in T.grid(n, 3):
            with T.block("add_row"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vj]

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            gv = R.call_tir(cls.add_row, (x, R.const([2.0, 4.0, 6.0], "float32")), out_sinfo=R.Tensor((n, 3), dtype="float32"))
            R.output(gv)
        return gv
