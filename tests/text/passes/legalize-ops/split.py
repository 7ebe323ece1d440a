# PASSES: legalize-ops
# CHECKS: split becomes one PrimFunc with one output per piece, each reading at its offset: sections (ceildiv pieces) and symbolic indices (TVM test_split_by_indices, test_split_by_n_section)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((2, 10, 4), dtype="float32")) -> R.Tuple(R.Tensor((2, 4, 4), dtype="float32"), R.Tensor((2, 4, 4), dtype="float32"), R.Tensor((2, 2, 4), dtype="float32")):
        gv = R.split(x, indices_or_sections=3, axis=1)
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n", "m // 2"), dtype="float32"), R.Tensor(("n", "m - m // 2"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        gv = R.split(x, indices_or_sections=[m // 2], axis=1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((2, 10, 4), dtype="float32")) -> R.Tuple(R.Tensor((2, 4, 4), dtype="float32"), R.Tensor((2, 4, 4), dtype="float32"), R.Tensor((2, 2, 4), dtype="float32")):
        cls = Expected
        gv = R.call_tir(cls.split, (x,), out_sinfo=[R.Tensor((2, 4, 4), dtype="float32"), R.Tensor((2, 4, 4), dtype="float32"), R.Tensor((2, 2, 4), dtype="float32")])
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n", "m // 2"), dtype="float32"), R.Tensor(("n", "m - m // 2"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.split1, (x,), out_sinfo=[R.Tensor((n, m // 2), dtype="float32"), R.Tensor((n, m - m // 2), dtype="float32")])
        return gv

    @T.prim_func(private=True)
    def split(x: T.Buffer((T.int64(2), T.int64(10), T.int64(4)), "float32"), T_split_0: T.Buffer((T.int64(2), T.int64(4), T.int64(4)), "float32"), T_split_1: T.Buffer((T.int64(2), T.int64(4), T.int64(4)), "float32"), T_split_2: T.Buffer((T.int64(2), T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(4), T.int64(4)):
            with T.block("T_split_0"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2])
                T.writes(T_split_0[v_ax0, v_ax1, v_ax2])
                T_split_0[v_ax0, v_ax1, v_ax2] = x[v_ax0, v_ax1, v_ax2]
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(4), T.int64(4)):
            with T.block("T_split_1"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1 + T.int64(4), v_ax2])
                T.writes(T_split_1[v_ax0, v_ax1, v_ax2])
                T_split_1[v_ax0, v_ax1, v_ax2] = x[v_ax0, v_ax1 + T.int64(4), v_ax2]
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(2), T.int64(4)):
            with T.block("T_split_2"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1 + T.int64(8), v_ax2])
                T.writes(T_split_2[v_ax0, v_ax1, v_ax2])
                T_split_2[v_ax0, v_ax1, v_ax2] = x[v_ax0, v_ax1 + T.int64(8), v_ax2]

    @T.prim_func(private=True)
    def split1(var_x: T.handle, var_T_split_0: T.handle, var_T_split_1: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        T_split_0 = T.match_buffer(var_T_split_0, (n, m // T.int64(2)))
        T_split_1 = T.match_buffer(var_T_split_1, (n, m - m // T.int64(2)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, m // T.int64(2)):
            with T.block("T_split_0"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(T_split_0[v_ax0, v_ax1])
                T_split_0[v_ax0, v_ax1] = x[v_ax0, v_ax1]
        for ax0, ax1 in T.grid(n, m - m // T.int64(2)):
            with T.block("T_split_1"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1 + m // T.int64(2)])
                T.writes(T_split_1[v_ax0, v_ax1])
                T_split_1[v_ax0, v_ax1] = x[v_ax0, v_ax1 + m // T.int64(2)]
