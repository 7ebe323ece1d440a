# PASSES: legalize-ops
# CHECKS: matmul: 2-D symbolic, batch dims broadcast, 1-D operands on either or both sides (0-d result), out_dtype casts the operands
@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor(("n", 4), dtype="float32"), b: R.Tensor((4, "m"), dtype="float32"), c: R.Tensor((2, 1, "n", 4), dtype="float32"), d: R.Tensor((3, 4, 5), dtype="float32"), v: R.Tensor((4,), dtype="float32"), h: R.Tensor((4, 4), dtype="float16")) -> R.Tensor((), dtype="float32"):
        n = T.int64()
        m = T.int64()
        m0 = R.matmul(a, b)
        m1 = R.matmul(c, d)
        m2 = R.matmul(v, b)
        m3 = R.matmul(a, v)
        m4 = R.matmul(v, v)
        m5 = R.matmul(h, h, out_dtype="float32")
        return m4

@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor(("n", 4), dtype="float32"), b: R.Tensor((4, "m"), dtype="float32"), c: R.Tensor((2, 1, "n", 4), dtype="float32"), d: R.Tensor((3, 4, 5), dtype="float32"), v: R.Tensor((4,), dtype="float32"), h: R.Tensor((4, 4), dtype="float16")) -> R.Tensor((), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        m0 = R.call_tir(cls.matmul, (a, b), out_sinfo=R.Tensor((n, m), dtype="float32"))
        m1 = R.call_tir(cls.matmul1, (c, d), out_sinfo=R.Tensor((2, 3, n, 5), dtype="float32"))
        m2 = R.call_tir(cls.matmul2, (v, b), out_sinfo=R.Tensor((m,), dtype="float32"))
        m3 = R.call_tir(cls.matmul3, (a, v), out_sinfo=R.Tensor((n,), dtype="float32"))
        m4 = R.call_tir(cls.matmul4, (v, v), out_sinfo=R.Tensor((), dtype="float32"))
        m5 = R.call_tir(cls.matmul5, (h, h), out_sinfo=R.Tensor((4, 4), dtype="float32"))
        return m4

    @T.prim_func(private=True)
    def matmul(var_a: T.handle, var_b: T.handle, var_matmul: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a = T.match_buffer(var_a, (n, T.int64(4)))
        m = T.int64()
        b = T.match_buffer(var_b, (T.int64(4), m))
        matmul = T.match_buffer(var_matmul, (n, m))
        for ax0, ax1, k in T.grid(n, m, T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
                T.reads(a[v_ax0, v_k], b[v_k, v_ax1])
                T.writes(matmul[v_ax0, v_ax1])
                with T.init():
                    matmul[v_ax0, v_ax1] = T.float32(0.0)
                matmul[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + a[v_ax0, v_k] * b[v_k, v_ax1]

    @T.prim_func(private=True)
    def matmul1(var_c: T.handle, d: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "float32"), var_matmul: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        c = T.match_buffer(var_c, (T.int64(2), T.int64(1), n, T.int64(4)))
        matmul = T.match_buffer(var_matmul, (T.int64(2), T.int64(3), n, T.int64(5)))
        for ax0, ax1, ax2, ax3, k in T.grid(T.int64(2), T.int64(3), n, T.int64(5), T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_k = T.axis.remap("SSSSR", [ax0, ax1, ax2, ax3, k])
                T.reads(c[v_ax0, T.int64(0), v_ax2, v_k], d[v_ax1, v_k, v_ax3])
                T.writes(matmul[v_ax0, v_ax1, v_ax2, v_ax3])
                with T.init():
                    matmul[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0.0)
                matmul[v_ax0, v_ax1, v_ax2, v_ax3] = matmul[v_ax0, v_ax1, v_ax2, v_ax3] + c[v_ax0, T.int64(0), v_ax2, v_k] * d[v_ax1, v_k, v_ax3]

    @T.prim_func(private=True)
    def matmul2(v: T.Buffer((T.int64(4),), "float32"), var_b: T.handle, var_matmul: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        m = T.int64()
        b = T.match_buffer(var_b, (T.int64(4), m))
        matmul = T.match_buffer(var_matmul, (m,))
        for ax0, k in T.grid(m, T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(v[v_k], b[v_k, v_ax0])
                T.writes(matmul[v_ax0])
                with T.init():
                    matmul[v_ax0] = T.float32(0.0)
                matmul[v_ax0] = matmul[v_ax0] + v[v_k] * b[v_k, v_ax0]

    @T.prim_func(private=True)
    def matmul3(var_a: T.handle, v: T.Buffer((T.int64(4),), "float32"), var_matmul: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a = T.match_buffer(var_a, (n, T.int64(4)))
        matmul = T.match_buffer(var_matmul, (n,))
        for ax0, k in T.grid(n, T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(a[v_ax0, v_k], v[v_k])
                T.writes(matmul[v_ax0])
                with T.init():
                    matmul[v_ax0] = T.float32(0.0)
                matmul[v_ax0] = matmul[v_ax0] + a[v_ax0, v_k] * v[v_k]

    @T.prim_func(private=True)
    def matmul4(v: T.Buffer((T.int64(4),), "float32"), v_1: T.Buffer((T.int64(4),), "float32"), matmul: T.Buffer((), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for k in range(T.int64(4)):
            with T.block("matmul"):
                v_k = T.axis.reduce(T.int64(4), k)
                T.reads(v[v_k], v_1[v_k])
                T.writes(matmul[()])
                with T.init():
                    matmul[()] = T.float32(0.0)
                matmul[()] = matmul[()] + v[v_k] * v_1[v_k]

    @T.prim_func(private=True)
    def matmul5(h: T.Buffer((T.int64(4), T.int64(4)), "float16"), h_1: T.Buffer((T.int64(4), T.int64(4)), "float16"), matmul: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, k in T.grid(T.int64(4), T.int64(4), T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
                T.reads(h[v_ax0, v_k], h_1[v_k, v_ax1])
                T.writes(matmul[v_ax0, v_ax1])
                with T.init():
                    matmul[v_ax0, v_ax1] = T.float32(0.0)
                matmul[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + T.Cast("float32", h[v_ax0, v_k]) * T.Cast("float32", h_1[v_k, v_ax1])
