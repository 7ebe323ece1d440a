# PASSES: legalize-ops
# CHECKS: concat becomes "concatenate" choosing the input by the offset along the axis; symbolic sizes add up (n + m) (TVM test_concat)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((1, 2, 3), dtype="float32"), y: R.Tensor((1, 3, 3), dtype="float32"), z: R.Tensor((1, 4, 3), dtype="float32")) -> R.Tensor((1, 9, 3), dtype="float32"):
        gv = R.concat((x, y, z), axis=1)
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32")) -> R.Tensor(("n + m", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        gv = R.concat((x, y))
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((1, 2, 3), dtype="float32"), y: R.Tensor((1, 3, 3), dtype="float32"), z: R.Tensor((1, 4, 3), dtype="float32")) -> R.Tensor((1, 9, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.concatenate, (x, y, z), out_sinfo=R.Tensor((1, 9, 3), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32")) -> R.Tensor(("n + m", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.concatenate1, (x, y), out_sinfo=R.Tensor((m + n, 4), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def concatenate(x: T.Buffer((T.int64(1), T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(1), T.int64(3), T.int64(3)), "float32"), z: T.Buffer((T.int64(1), T.int64(4), T.int64(3)), "float32"), T_concat: T.Buffer((T.int64(1), T.int64(9), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(1), T.int64(9), T.int64(3)):
            with T.block("T_concat"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2], y[v_ax0, v_ax1 - T.int64(2), v_ax2], z[v_ax0, v_ax1 - T.int64(5), v_ax2])
                T.writes(T_concat[v_ax0, v_ax1, v_ax2])
                T_concat[v_ax0, v_ax1, v_ax2] = T.if_then_else(v_ax1 < T.int64(2), x[v_ax0, v_ax1, v_ax2], T.if_then_else(v_ax1 < T.int64(5), y[v_ax0, v_ax1 - T.int64(2), v_ax2], z[v_ax0, v_ax1 - T.int64(5), v_ax2]))

    @T.prim_func(private=True)
    def concatenate1(var_x: T.handle, var_y: T.handle, var_T_concat: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        m = T.int64()
        y = T.match_buffer(var_y, (m, T.int64(4)))
        T_concat = T.match_buffer(var_T_concat, (m + n, T.int64(4)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(m + n, T.int64(4)):
            with T.block("T_concat"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], y[v_ax0 - n, v_ax1])
                T.writes(T_concat[v_ax0, v_ax1])
                T_concat[v_ax0, v_ax1] = T.if_then_else(v_ax0 < n, x[v_ax0, v_ax1], y[v_ax0 - n, v_ax1])
