# PASSES: legalize-ops
# CHECKS: reshape (symbolic merge of dims and a -1 resolved from the deduced shape) reads the input through the row-major flat position; permute_dims reversed and with axes
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3, 4), dtype="float32"), y: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((4, 3, "n"), dtype="float32"):
        n = T.int64()
        a = R.reshape(x, R.shape([n * 3, 4]))
        b = R.reshape(y, R.shape([4, -1]))
        c = R.permute_dims(x)
        d = R.permute_dims(y, axes=[0, 2, 1])
        return c

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3, 4), dtype="float32"), y: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((4, 3, "n"), dtype="float32"):
        n = T.int64()
        cls = Expected
        a = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((n * 3, 4), dtype="float32"))
        b = R.call_tir(cls.reshape1, (y,), out_sinfo=R.Tensor((4, 6), dtype="float32"))
        c = R.call_tir(cls.transpose, (x,), out_sinfo=R.Tensor((4, 3, n), dtype="float32"))
        d = R.call_tir(cls.transpose1, (y,), out_sinfo=R.Tensor((2, 4, 3), dtype="float32"))
        return c

    @T.prim_func(private=True)
    def reshape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), T.int64(4)))
        T_reshape = T.match_buffer(var_T_reshape, (n * T.int64(3), T.int64(4)))
        for ax0, ax1 in T.grid(n * T.int64(3), T.int64(4)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(4) + v_ax1) // T.int64(12), (v_ax0 + v_ax1 // T.int64(4)) % T.int64(3), v_ax1 % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(4) + v_ax1) // T.int64(12), (v_ax0 + v_ax1 // T.int64(4)) % T.int64(3), v_ax1 % T.int64(4)]

    @T.prim_func(private=True)
    def reshape1(y: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_reshape: T.Buffer((T.int64(4), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(4), T.int64(6)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(y[(v_ax0 * T.int64(6) + v_ax1) // T.int64(12), (v_ax0 * T.int64(6) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(6) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = y[(v_ax0 * T.int64(6) + v_ax1) // T.int64(12), (v_ax0 * T.int64(6) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(6) + v_ax1) % T.int64(4)]

    @T.prim_func(private=True)
    def transpose(var_x: T.handle, var_T_transpose: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), T.int64(4)))
        T_transpose = T.match_buffer(var_T_transpose, (T.int64(4), T.int64(3), n))
        for ax0, ax1, ax2 in T.grid(T.int64(4), T.int64(3), n):
            with T.block("T_transpose"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax2, v_ax1, v_ax0])
                T.writes(T_transpose[v_ax0, v_ax1, v_ax2])
                T_transpose[v_ax0, v_ax1, v_ax2] = x[v_ax2, v_ax1, v_ax0]

    @T.prim_func(private=True)
    def transpose1(y: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_transpose: T.Buffer((T.int64(2), T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("T_transpose"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(y[v_ax0, v_ax2, v_ax1])
                T.writes(T_transpose[v_ax0, v_ax1, v_ax2])
                T_transpose[v_ax0, v_ax1, v_ax2] = y[v_ax0, v_ax2, v_ax1]
