# PASSES: legalize-ops
# CHECKS: two adds of the same shapes share one PrimFunc; an add of other shapes gets "add1"; calls in a dataflow block and in a second function are rewritten too
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.add(a, x)
            c = R.add(y, b)
            R.output(c)
        return c

    @R.function
    def other(z: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        d = R.add(z, z)
        return d

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(4),), "float32"), x_1: T.Buffer((T.int64(4),), "float32"), T_add: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("T_add"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(x[v_ax0], x_1[v_ax0])
                T.writes(T_add[v_ax0])
                T_add[v_ax0] = x[v_ax0] + x_1[v_ax0]

    @T.prim_func(private=True)
    def add1(y: T.Buffer((T.int64(2), T.int64(4)), "float32"), b: T.Buffer((T.int64(4),), "float32"), T_add: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(4)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(y[v_ax0, v_ax1], b[v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = y[v_ax0, v_ax1] + b[v_ax1]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Expected
        with R.dataflow():
            a = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((4,), dtype="float32"))
            b = R.call_tir(cls.add, (a, x), out_sinfo=R.Tensor((4,), dtype="float32"))
            c = R.call_tir(cls.add1, (y, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(c)
        return c

    @R.function
    def other(z: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Expected
        d = R.call_tir(cls.add, (z, z), out_sinfo=R.Tensor((4,), dtype="float32"))
        return d
