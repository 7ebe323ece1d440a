# PASSES: legalize-ops
# CHECKS: take reads the input at the (int64-cast) index; clip clamps it, wrap takes it modulo the axis length (TVM test_take)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((2, 3, 4), dtype="float32"), indices: R.Tensor((4,), dtype="int64")) -> R.Tensor((2, 4, 4), dtype="float32"):
        gv = R.take(x, indices, axis=1, mode="clip")
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32"), indices: R.Tensor(("i",), dtype="int32")) -> R.Tensor(("n", "i"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        i = T.int64()
        gv = R.take(x, indices, axis=1, mode="wrap")
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((2, 3, 4), dtype="float32"), indices: R.Tensor((4,), dtype="int64")) -> R.Tensor((2, 4, 4), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.take, (x, indices), out_sinfo=R.Tensor((2, 4, 4), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32"), indices: R.Tensor(("i",), dtype="int32")) -> R.Tensor(("n", "i"), dtype="float32"):
        n = T.int64()
        i = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.take1, (x, indices), out_sinfo=R.Tensor((n, i), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def take(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), indices: T.Buffer((T.int64(4),), "int64"), T_take: T.Buffer((T.int64(2), T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(4), T.int64(4)):
            with T.block("T_take"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(indices[v_ax1], x[v_ax0, T.int64(0):T.int64(3), v_ax2])
                T.writes(T_take[v_ax0, v_ax1, v_ax2])
                T_take[v_ax0, v_ax1, v_ax2] = x[v_ax0, T.min(T.max(indices[v_ax1], T.int64(0)), T.int64(2)), v_ax2]

    @T.prim_func(private=True)
    def take1(var_x: T.handle, var_indices: T.handle, var_T_take: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        i = T.int64()
        indices = T.match_buffer(var_indices, (i,), "int32")
        T_take = T.match_buffer(var_T_take, (n, i))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, i):
            with T.block("T_take"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(indices[v_ax1], x[v_ax0, T.int64(0):m])
                T.writes(T_take[v_ax0, v_ax1])
                T_take[v_ax0, v_ax1] = x[v_ax0, T.Cast("int64", indices[v_ax1]) % m]
