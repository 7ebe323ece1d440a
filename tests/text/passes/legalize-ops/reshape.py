# PASSES: legalize-ops
# CHECKS: reshape (with -1, to a Shape-typed parameter) copies in row-major order: flat index of the output unravelled into the input (TVM test_reshape)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((8, 3), dtype="float32"):
        gv = R.reshape(x, R.shape([8, -1]))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", 4), dtype="float32"), s: R.Shape(["m", 2])) -> R.Tensor(("m", 2), dtype="float32"):
        n = T.int64()
        m = T.int64()
        gv = R.reshape(x, s)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((8, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((8, 3), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", 4), dtype="float32"), s: R.Shape(["m", 2])) -> R.Tensor(("m", 2), dtype="float32"):
        m = T.int64()
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.reshape1, (x,), out_sinfo=R.Tensor((m, 2), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def reshape(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_reshape: T.Buffer((T.int64(8), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(8), T.int64(3)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(12), (v_ax0 * T.int64(3) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(3) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(12), (v_ax0 * T.int64(3) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(3) + v_ax1) % T.int64(4)]

    @T.prim_func(private=True)
    def reshape1(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        m = T.int64()
        T_reshape = T.match_buffer(var_T_reshape, (m, T.int64(2)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(m, T.int64(2)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(2) + v_ax1) // T.int64(4), (v_ax0 * T.int64(2) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(2) + v_ax1) // T.int64(4), (v_ax0 * T.int64(2) + v_ax1) % T.int64(4)]
