# PASSES: legalize-ops
# CHECKS: expand_dims drops the new unit axes from the index, squeeze reads removed axes at 0, flatten is a reshape to (n * m,)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((2, 1, 3), dtype="float32")) -> R.Tensor((1, 2, 1, 1, 3), dtype="float32"):
        lv = R.squeeze(x)
        lv1 = R.flatten(lv)
        gv = R.expand_dims(x, axis=[0, -2])
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", 1, "m"), dtype="float16")) -> R.Tensor(("n * m",), dtype="float16"):
        n = T.int64()
        m = T.int64()
        lv = R.expand_dims(x, axis=[1])
        lv1 = R.squeeze(x, axis=[1])
        gv = R.flatten(lv1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((2, 1, 3), dtype="float32")) -> R.Tensor((1, 2, 1, 1, 3), dtype="float32"):
        cls = Expected
        lv = R.call_tir(cls.squeeze, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        lv1 = R.call_tir(cls.reshape, (lv,), out_sinfo=R.Tensor((6,), dtype="float32"))
        gv = R.call_tir(cls.expand_dims, (x,), out_sinfo=R.Tensor((1, 2, 1, 1, 3), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", 1, "m"), dtype="float16")) -> R.Tensor(("n * m",), dtype="float16"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        lv = R.call_tir(cls.expand_dims1, (x,), out_sinfo=R.Tensor((n, 1, 1, m), dtype="float16"))
        lv1 = R.call_tir(cls.squeeze1, (x,), out_sinfo=R.Tensor((n, m), dtype="float16"))
        gv = R.call_tir(cls.reshape1, (lv1,), out_sinfo=R.Tensor((m * n,), dtype="float16"))
        return gv

    @T.prim_func(private=True)
    def squeeze(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_squeeze: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_squeeze"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, T.int64(0), v_ax1])
                T.writes(T_squeeze[v_ax0, v_ax1])
                T_squeeze[v_ax0, v_ax1] = x[v_ax0, T.int64(0), v_ax1]

    @T.prim_func(private=True)
    def reshape(lv: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_reshape: T.Buffer((T.int64(6),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0 in range(T.int64(6)):
            with T.block("T_reshape"):
                v_ax0 = T.axis.spatial(T.int64(6), ax0)
                T.reads(lv[v_ax0 // T.int64(3), v_ax0 % T.int64(3)])
                T.writes(T_reshape[v_ax0])
                T_reshape[v_ax0] = lv[v_ax0 // T.int64(3), v_ax0 % T.int64(3)]

    @T.prim_func(private=True)
    def expand_dims(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_expand_dims: T.Buffer((T.int64(1), T.int64(2), T.int64(1), T.int64(1), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3, ax4 in T.grid(T.int64(1), T.int64(2), T.int64(1), T.int64(1), T.int64(3)):
            with T.block("T_expand_dims"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_ax4 = T.axis.remap("SSSSS", [ax0, ax1, ax2, ax3, ax4])
                T.reads(x[v_ax1, v_ax2, v_ax4])
                T.writes(T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4])
                T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = x[v_ax1, v_ax2, v_ax4]

    @T.prim_func(private=True)
    def expand_dims1(var_x: T.handle, var_T_expand_dims: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, T.int64(1), m), "float16")
        T_expand_dims = T.match_buffer(var_T_expand_dims, (n, T.int64(1), T.int64(1), m), "float16")
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(n, T.int64(1), T.int64(1), m):
            with T.block("T_expand_dims"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax0, v_ax2, v_ax3])
                T.writes(T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3])
                T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3] = x[v_ax0, v_ax2, v_ax3]

    @T.prim_func(private=True)
    def squeeze1(var_x: T.handle, var_T_squeeze: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, T.int64(1), m), "float16")
        T_squeeze = T.match_buffer(var_T_squeeze, (n, m), "float16")
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, m):
            with T.block("T_squeeze"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, T.int64(0), v_ax1])
                T.writes(T_squeeze[v_ax0, v_ax1])
                T_squeeze[v_ax0, v_ax1] = x[v_ax0, T.int64(0), v_ax1]

    @T.prim_func(private=True)
    def reshape1(var_lv1: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        lv1 = T.match_buffer(var_lv1, (n, m), "float16")
        T_reshape = T.match_buffer(var_T_reshape, (m * n,), "float16")
        # with T.block("root"):
        for ax0 in range(m * n):
            with T.block("T_reshape"):
                v_ax0 = T.axis.spatial(m * n, ax0)
                T.reads(lv1[v_ax0 // m, v_ax0 % m])
                T.writes(T_reshape[v_ax0])
                T_reshape[v_ax0] = lv1[v_ax0 // m, v_ax0 % m]
