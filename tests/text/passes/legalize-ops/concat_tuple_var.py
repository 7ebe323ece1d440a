# PASSES: legalize-ops
# CHECKS: concat of a tuple-valued variable: the fields are bound as t[0], t[1] before the call_tir
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32")) -> R.Tensor(("n + m", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        t = (x, y)
        gv = R.concat(t, axis=0)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32")) -> R.Tensor(("n + m", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        t: R.Tuple(R.Tensor((n, 4), dtype="float32"), R.Tensor((m, 4), dtype="float32")) = (x, y)
        lv: R.Tensor((n, 4), dtype="float32") = t[0]
        lv_1: R.Tensor((m, 4), dtype="float32") = t[1]
        gv = R.call_tir(cls.concatenate, (lv, lv_1), out_sinfo=R.Tensor((m + n, 4), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def concatenate(var_lv: T.handle, var_lv_1: T.handle, var_T_concat: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        lv = T.match_buffer(var_lv, (n, T.int64(4)))
        m = T.int64()
        lv_1 = T.match_buffer(var_lv_1, (m, T.int64(4)))
        T_concat = T.match_buffer(var_T_concat, (m + n, T.int64(4)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(m + n, T.int64(4)):
            with T.block("T_concat"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(lv[v_ax0, v_ax1], lv_1[v_ax0 - n, v_ax1])
                T.writes(T_concat[v_ax0, v_ax1])
                T_concat[v_ax0, v_ax1] = T.if_then_else(v_ax0 < n, lv[v_ax0, v_ax1], lv_1[v_ax0 - n, v_ax1])
