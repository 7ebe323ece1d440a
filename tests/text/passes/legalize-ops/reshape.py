# PASSES: legalize-ops
# CHECKS: reshape (with -1) copies in row-major order: flat index of the output unravelled into the input (TVM test_reshape); a reshape to a Shape-typed parameter, whose element count the analyzer cannot prove equal to the input's, stays R.reshape (lowered to the run-time-checked vm.builtin.reshape) instead of a kernel that could read past its input
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
        gv = R.reshape(x, s)
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
