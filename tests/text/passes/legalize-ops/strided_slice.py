# PASSES: legalize-ops
# CHECKS: strided_slice reads begin + i * stride, begins clamped into the axis as the deduced shape assumes; a symbolic begin is used as is with assume_inbound (TVM test_strided_slice)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((8, 9, 10, 10), dtype="float32")) -> R.Tensor((4, 9, 10, 3), dtype="float32"):
        gv = R.strided_slice(x, (0, 1, 3), (1, 0, 8), (8, 9, 0), (2, 1, -3))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m - m // 2"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        gv = R.strided_slice(x, (1,), (R.prim_value(m // 2),), (m,), assume_inbound=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((8, 9, 10, 10), dtype="float32")) -> R.Tensor((4, 9, 10, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.strided_slice, (x,), out_sinfo=R.Tensor((4, 9, 10, 3), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m - m // 2"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.strided_slice1, (x,), out_sinfo=R.Tensor((n, m - m // 2), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def strided_slice(x: T.Buffer((T.int64(8), T.int64(9), T.int64(10), T.int64(10)), "float32"), T_strided_slice_with_axes: T.Buffer((T.int64(4), T.int64(9), T.int64(10), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(4), T.int64(9), T.int64(10), T.int64(3)):
            with T.block("T_strided_slice_with_axes"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax0 * T.int64(2) + T.int64(1), v_ax1, v_ax2, T.int64(8) - v_ax3 * T.int64(3)])
                T.writes(T_strided_slice_with_axes[v_ax0, v_ax1, v_ax2, v_ax3])
                T_strided_slice_with_axes[v_ax0, v_ax1, v_ax2, v_ax3] = x[v_ax0 * T.int64(2) + T.int64(1), v_ax1, v_ax2, T.int64(8) - v_ax3 * T.int64(3)]

    @T.prim_func(private=True)
    def strided_slice1(var_x: T.handle, var_T_strided_slice_with_axes: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        T_strided_slice_with_axes = T.match_buffer(var_T_strided_slice_with_axes, (n, m - m // T.int64(2)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, m - m // T.int64(2)):
            with T.block("T_strided_slice_with_axes"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1 + m // T.int64(2)])
                T.writes(T_strided_slice_with_axes[v_ax0, v_ax1])
                T_strided_slice_with_axes[v_ax0, v_ax1] = x[v_ax0, v_ax1 + m // T.int64(2)]
