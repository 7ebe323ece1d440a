# PASSES: legalize-ops
# CHECKS: where broadcasts condition, x1 and x2 together into one Select
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor(("n", 1), dtype="bool"), x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        z = R.where(c, x, y)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(c: R.Tensor(("n", 1), dtype="bool"), x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        z = R.call_tir(cls.where, (c, x, y), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        return z

    @T.prim_func(private=True)
    def where(var_c: T.handle, var_x: T.handle, y: T.Buffer((T.int64(4),), "float32"), var_T_where: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        c = T.match_buffer(var_c, (n, T.int64(1)), "bool")
        x = T.match_buffer(var_x, (n, T.int64(4)))
        T_where = T.match_buffer(var_T_where, (n, T.int64(4)))
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_where"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(c[v_ax0, T.int64(0)], x[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_where[v_ax0, v_ax1])
                T_where[v_ax0, v_ax1] = T.Select(c[v_ax0, T.int64(0)], x[v_ax0, v_ax1], y[v_ax1])
