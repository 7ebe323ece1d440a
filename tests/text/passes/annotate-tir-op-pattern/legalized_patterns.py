# PASSES: legalize-ops,annotate-tir-op-pattern
# CHECKS: legalized reductions are comm-reduce (3), mean (sum then divide into the output) and matmul are out-elemwise-fusable (4), transpose and reshape injective (2), zeros (no loads) elemwise (0)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        a = R.sum(x, axis=[1])
        b = R.mean(x, axis=[1])
        c = R.matmul(x, w)
        d = R.permute_dims(c)
        e = R.reshape(x, R.shape([n * 4]))
        f = R.zeros(R.shape([n, 3]), dtype="float32")
        return c

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        a = R.call_tir(cls.sum, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
        b = R.call_tir(cls.mean, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
        c = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        d = R.call_tir(cls.transpose, (c,), out_sinfo=R.Tensor((3, n), dtype="float32"))
        e = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
        f = R.call_tir(cls.zeros, R.tuple(), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        return c

    @T.prim_func(private=True)
    def sum(var_x: T.handle, var_x_red: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 3})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        x_red = T.match_buffer(var_x_red, (n,))
        for ax0, k1 in T.grid(n, T.int64(4)):
            with T.block("x_red"):
                v_ax0, v_k1 = T.axis.remap("SR", [ax0, k1])
                T.reads(x[v_ax0, v_k1])
                T.writes(x_red[v_ax0])
                with T.init():
                    x_red[v_ax0] = T.float32(0.0)
                x_red[v_ax0] = x_red[v_ax0] + x[v_ax0, v_k1]

    @T.prim_func(private=True)
    def mean(var_x: T.handle, var_T_divide: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 4})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        T_divide = T.match_buffer(var_T_divide, (n,))
        x_red = T.alloc_buffer((n,))
        for ax0, k1 in T.grid(n, T.int64(4)):
            with T.block("x_red"):
                v_ax0, v_k1 = T.axis.remap("SR", [ax0, k1])
                T.reads(x[v_ax0, v_k1])
                T.writes(x_red[v_ax0])
                with T.init():
                    x_red[v_ax0] = T.float32(0.0)
                x_red[v_ax0] = x_red[v_ax0] + x[v_ax0, v_k1]
        for ax0 in range(n):
            with T.block("T_divide"):
                v_ax0 = T.axis.spatial(n, ax0)
                T.reads(x_red[v_ax0])
                T.writes(T_divide[v_ax0])
                T_divide[v_ax0] = x_red[v_ax0] / T.float32(4.0)

    @T.prim_func(private=True)
    def matmul(var_x: T.handle, w: T.Buffer((T.int64(4), T.int64(3)), "float32"), var_matmul: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 4})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        matmul = T.match_buffer(var_matmul, (n, T.int64(3)))
        for ax0, ax1, k in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
                T.reads(x[v_ax0, v_k], w[v_k, v_ax1])
                T.writes(matmul[v_ax0, v_ax1])
                with T.init():
                    matmul[v_ax0, v_ax1] = T.float32(0.0)
                matmul[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + x[v_ax0, v_k] * w[v_k, v_ax1]

    @T.prim_func(private=True)
    def transpose(var_c: T.handle, var_T_transpose: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 2})
        n = T.int64()
        c = T.match_buffer(var_c, (n, T.int64(3)))
        T_transpose = T.match_buffer(var_T_transpose, (T.int64(3), n))
        for ax0, ax1 in T.grid(T.int64(3), n):
            with T.block("T_transpose"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(c[v_ax1, v_ax0])
                T.writes(T_transpose[v_ax0, v_ax1])
                T_transpose[v_ax0, v_ax1] = c[v_ax1, v_ax0]

    @T.prim_func(private=True)
    def reshape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 2})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        T_reshape = T.match_buffer(var_T_reshape, (n * T.int64(4),))
        for ax0 in range(n * T.int64(4)):
            with T.block("T_reshape"):
                v_ax0 = T.axis.spatial(n * T.int64(4), ax0)
                T.reads(x[v_ax0 // T.int64(4), v_ax0 % T.int64(4)])
                T.writes(T_reshape[v_ax0])
                T_reshape[v_ax0] = x[v_ax0 // T.int64(4), v_ax0 % T.int64(4)]

    @T.prim_func(private=True)
    def zeros(var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 0})
        n = T.int64()
        T_full = T.match_buffer(var_T_full, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = T.float32(0.0)
