# PASSES: legalize-ops
# CHECKS: layout_transform fills the output with pad_value, then stores out[f(i)] = x[i] over x's domain (padding 14 -> 4 x 4); symbolic dims pass through
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((3, 14), dtype="float32")) -> R.Tensor((4, 3, 4), dtype="float32"):
        gv = R.layout_transform(x, index_map=T.index_map(lambda i, j: (j // 4, i, j % 4)), pad_value=R.prim_value(T.float32(2)), axis_separators=[])
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float16")) -> R.Tensor(("m", "n"), dtype="float16"):
        n = T.int64()
        m = T.int64()
        gv = R.layout_transform(x, index_map=T.index_map(lambda a, b: (b, a)), pad_value=None, axis_separators=[])
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((3, 14), dtype="float32")) -> R.Tensor((4, 3, 4), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.te_layout_transform, (x,), out_sinfo=R.Tensor((4, 3, 4), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float16")) -> R.Tensor(("m", "n"), dtype="float16"):
        m = T.int64()
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.te_layout_transform1, (x,), out_sinfo=R.Tensor((m, n), dtype="float16"))
        return gv

    @T.prim_func(private=True)
    def te_layout_transform(x: T.Buffer((T.int64(3), T.int64(14)), "float32"), T_layout_trans: T.Buffer((T.int64(4), T.int64(3), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i0, i1, i2 in T.grid(T.int64(4), T.int64(3), T.int64(4)):
            T_layout_trans[i0, i1, i2] = T.float32(2.0)
        for j0, j1 in T.grid(T.int64(3), T.int64(14)):
            T_layout_trans[j1 // T.int64(4), j0, j1 % T.int64(4)] = x[j0, j1]

    @T.prim_func(private=True)
    def te_layout_transform1(var_x: T.handle, var_T_layout_trans: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m), "float16")
        T_layout_trans = T.match_buffer(var_T_layout_trans, (m, n), "float16")
        for i0, i1 in T.grid(m, n):
            T_layout_trans[i0, i1] = T.float16(0.0)
        for j0, j1 in T.grid(n, m):
            T_layout_trans[j1, j0] = x[j0, j1]
