# PASSES: legalize-ops
# CHECKS: broadcast_to reads unit dimensions at 0 and aligns at the right (TVM test_broadcast_to)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((2, 1, 3), dtype="float32")) -> R.Tensor((4, 2, 5, 3), dtype="float32"):
        gv = R.broadcast_to(x, R.shape([4, 2, 5, 3]))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("a", 1, "c"), dtype="float32"), s: R.Shape(["d", "a", "b", "c"])) -> R.Tensor(("d", "a", "b", "c"), dtype="float32"):
        a = T.int64()
        b = T.int64()
        c = T.int64()
        d = T.int64()
        gv = R.broadcast_to(x, s)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((2, 1, 3), dtype="float32")) -> R.Tensor((4, 2, 5, 3), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.broadcast_to, (x,), out_sinfo=R.Tensor((4, 2, 5, 3), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("a", 1, "c"), dtype="float32"), s: R.Shape(["d", "a", "b", "c"])) -> R.Tensor(("d", "a", "b", "c"), dtype="float32"):
        d = T.int64()
        a = T.int64()
        b = T.int64()
        c = T.int64()
        cls = Expected
        gv = R.call_tir(cls.broadcast_to1, (x,), out_sinfo=R.Tensor((d, a, b, c), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def broadcast_to(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_broadcast_to: T.Buffer((T.int64(4), T.int64(2), T.int64(5), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(4), T.int64(2), T.int64(5), T.int64(3)):
            with T.block("T_broadcast_to"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax1, T.int64(0), v_ax3])
                T.writes(T_broadcast_to[v_ax0, v_ax1, v_ax2, v_ax3])
                T_broadcast_to[v_ax0, v_ax1, v_ax2, v_ax3] = x[v_ax1, T.int64(0), v_ax3]

    @T.prim_func(private=True)
    def broadcast_to1(var_x: T.handle, var_T_broadcast_to: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        a, c = T.int64(), T.int64()
        x = T.match_buffer(var_x, (a, T.int64(1), c))
        d, b = T.int64(), T.int64()
        T_broadcast_to = T.match_buffer(var_T_broadcast_to, (d, a, b, c))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(d, a, b, c):
            with T.block("T_broadcast_to"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax1, T.int64(0), v_ax3])
                T.writes(T_broadcast_to[v_ax0, v_ax1, v_ax2, v_ax3])
                T_broadcast_to[v_ax0, v_ax1, v_ax2, v_ax3] = x[v_ax1, T.int64(0), v_ax3]
