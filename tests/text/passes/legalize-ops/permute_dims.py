# PASSES: legalize-ops
# CHECKS: permute_dims becomes a "transpose" PrimFunc reading the input at the permuted index; axes=None reverses (TVM test_permute_dims)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((1, 2, 3, 4), dtype="float32")) -> R.Tensor((2, 4, 3, 1), dtype="float32"):
        gv = R.permute_dims(x, axes=[1, -1, 2, -4])
        return gv

    @R.function
    def symbolic(x: R.Tensor(("a", "b", "c"), dtype="int32")) -> R.Tensor(("c", "b", "a"), dtype="int32"):
        a = T.int64()
        b = T.int64()
        c = T.int64()
        gv = R.permute_dims(x)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((1, 2, 3, 4), dtype="float32")) -> R.Tensor((2, 4, 3, 1), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.transpose, (x,), out_sinfo=R.Tensor((2, 4, 3, 1), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("a", "b", "c"), dtype="int32")) -> R.Tensor(("c", "b", "a"), dtype="int32"):
        c = T.int64()
        b = T.int64()
        a = T.int64()
        cls = Expected
        gv = R.call_tir(cls.transpose1, (x,), out_sinfo=R.Tensor((c, b, a), dtype="int32"))
        return gv

    @T.prim_func(private=True)
    def transpose(x: T.Buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(4)), "float32"), T_transpose: T.Buffer((T.int64(2), T.int64(4), T.int64(3), T.int64(1)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(2), T.int64(4), T.int64(3), T.int64(1)):
            with T.block("T_transpose"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax3, v_ax0, v_ax2, v_ax1])
                T.writes(T_transpose[v_ax0, v_ax1, v_ax2, v_ax3])
                T_transpose[v_ax0, v_ax1, v_ax2, v_ax3] = x[v_ax3, v_ax0, v_ax2, v_ax1]

    @T.prim_func(private=True)
    def transpose1(var_x: T.handle, var_T_transpose: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        a, b, c = T.int64(), T.int64(), T.int64()
        x = T.match_buffer(var_x, (a, b, c), "int32")
        T_transpose = T.match_buffer(var_T_transpose, (c, b, a), "int32")
        # with T.block("root"):
        for ax0, ax1, ax2 in T.grid(c, b, a):
            with T.block("T_transpose"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax2, v_ax1, v_ax0])
                T.writes(T_transpose[v_ax0, v_ax1, v_ax2])
                T_transpose[v_ax0, v_ax1, v_ax2] = x[v_ax2, v_ax1, v_ax0]
