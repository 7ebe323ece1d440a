# PASSES: legalize-ops
# CHECKS: full/full_like/zeros/ones/zeros_like/ones_like (the _like ops do not take x), arange with a symbolic end (tir_vars) and float bounds (folded length), tril/triu, astype
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), v: R.Tensor((), dtype="int32"), s: R.Shape(["m", 2])) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        m = T.int64()
        f0 = R.full(R.shape([m, 2]), v, dtype="float32")
        f1 = R.full_like(x, v)
        f2 = R.zeros(R.shape([2, n]), dtype="int32")
        f3 = R.ones(s, dtype="float16")
        f4 = R.zeros_like(x)
        f5 = R.ones_like(x, dtype="bool")
        f6 = R.arange(R.prim_value(0), R.prim_value(n), R.prim_value(2))
        f7 = R.arange(R.prim_value(T.float32(0.5)), R.prim_value(T.float32(3)), R.prim_value(T.float32(0.75)), dtype="float32")
        f8 = R.tril(x, R.prim_value(1))
        f9 = R.triu(x, R.prim_value(-1))
        f10 = R.astype(x, dtype="float16")
        return f1

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), v: R.Tensor((), dtype="int32"), s: R.Shape(["m", 2])) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        f0 = R.call_tir(cls.full, (v,), out_sinfo=R.Tensor((m, 2), dtype="float32"))
        f1 = R.call_tir(cls.full1, (v,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        f2 = R.call_tir(cls.zeros, R.tuple(), out_sinfo=R.Tensor((2, n), dtype="int32"))
        f3 = R.call_tir(cls.ones, R.tuple(), out_sinfo=R.Tensor((m, 2), dtype="float16"))
        f4 = R.call_tir(cls.zeros1, R.tuple(), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        f5 = R.call_tir(cls.ones1, R.tuple(), out_sinfo=R.Tensor((n, 3), dtype="bool"))
        f6 = R.call_tir(cls.arange, R.tuple(), out_sinfo=R.Tensor(((n + 1) // 2,), dtype="int64"), tir_vars=R.shape([n]))
        f7 = R.call_tir(cls.arange1, R.tuple(), out_sinfo=R.Tensor((4,), dtype="float32"))
        f8 = R.call_tir(cls.tril, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        f9 = R.call_tir(cls.triu, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        f10 = R.call_tir(cls.cast, (x,), out_sinfo=R.Tensor((n, 3), dtype="float16"))
        return f1

    @T.prim_func(private=True)
    def full(v: T.Buffer((), "int32"), var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        m = T.int64()
        T_full = T.match_buffer(var_T_full, (m, T.int64(2)))
        for ax0, ax1 in T.grid(m, T.int64(2)):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(v[()])
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = T.Cast("float32", v[()])

    @T.prim_func(private=True)
    def full1(v: T.Buffer((), "int32"), var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        T_full = T.match_buffer(var_T_full, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(v[()])
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = T.Cast("float32", v[()])

    @T.prim_func(private=True)
    def zeros(var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        T_full = T.match_buffer(var_T_full, (T.int64(2), n), "int32")
        for ax0, ax1 in T.grid(T.int64(2), n):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = 0

    @T.prim_func(private=True)
    def ones(var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        m = T.int64()
        T_full = T.match_buffer(var_T_full, (m, T.int64(2)), "float16")
        for ax0, ax1 in T.grid(m, T.int64(2)):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = T.float16(1.0)

    @T.prim_func(private=True)
    def zeros1(var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        T_full = T.match_buffer(var_T_full, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = T.float32(0.0)

    @T.prim_func(private=True)
    def ones1(var_T_full: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        T_full = T.match_buffer(var_T_full, (n, T.int64(3)), "bool")
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_full"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(T_full[v_ax0, v_ax1])
                T_full[v_ax0, v_ax1] = T.bool(True)

    @T.prim_func(private=True)
    def arange(var_T_arange: T.handle, n: T.int64):
        T.func_attr({"tir.noalias": T.bool(True)})
        T_arange = T.match_buffer(var_T_arange, ((n + T.int64(1)) // T.int64(2),), "int64")
        for ax0 in range((n + T.int64(1)) // T.int64(2)):
            with T.block("T_arange"):
                v_ax0 = T.axis.spatial((n + T.int64(1)) // T.int64(2), ax0)
                T.reads()
                T.writes(T_arange[v_ax0])
                T_arange[v_ax0] = v_ax0 * T.int64(2)

    @T.prim_func(private=True)
    def arange1(T_arange: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("T_arange"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads()
                T.writes(T_arange[v_ax0])
                T_arange[v_ax0] = T.float32(0.5) + T.Cast("float32", v_ax0) * T.float32(0.75)

    @T.prim_func(private=True)
    def tril(var_x: T.handle, var_trilu: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        trilu = T.match_buffer(var_trilu, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("trilu"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(trilu[v_ax0, v_ax1])
                trilu[v_ax0, v_ax1] = T.Select(v_ax1 - v_ax0 <= T.int64(1), x[v_ax0, v_ax1], T.float32(0.0))

    @T.prim_func(private=True)
    def triu(var_x: T.handle, var_trilu: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        trilu = T.match_buffer(var_trilu, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("trilu"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(trilu[v_ax0, v_ax1])
                trilu[v_ax0, v_ax1] = T.Select(v_ax1 - v_ax0 >= T.int64(-1), x[v_ax0, v_ax1], T.float32(0.0))

    @T.prim_func(private=True)
    def cast(var_x: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)), "float16")
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.Cast("float16", x[v_ax0, v_ax1])
