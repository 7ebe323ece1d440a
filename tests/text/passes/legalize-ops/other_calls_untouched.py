# PASSES: legalize-ops
# CHECKS: calls of module functions and call_tir are left alone, existing PrimFuncs are kept, and adds inside If branches are legalized; a new PrimFunc whose name is taken gets the next free name
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("B"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] * T.float32(2)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        cls = Before
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        if c:
            z = R.add(y, x)
        else:
            z = y
        return z

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("B"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] * T.float32(2)

    @T.prim_func(private=True)
    def add1(y: T.Buffer((T.int64(4),), "float32"), x: T.Buffer((T.int64(4),), "float32"), T_add: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("T_add"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(y[v_ax0], x[v_ax0])
                T.writes(T_add[v_ax0])
                T_add[v_ax0] = y[v_ax0] + x[v_ax0]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        cls = Expected
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        if c:
            z = R.call_tir(cls.add1, (y, x), out_sinfo=R.Tensor((4,), dtype="float32"))
        else:
            z = y
        return z
