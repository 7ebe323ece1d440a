# PASSES: legalize-ops
# CHECKS: the inverse trigonometric and hyperbolic ops on a symbolic shape become call_tir of tir_<op> PrimFuncs calling the T.<op> intrinsic
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        a0 = R.asin(x)
        a1 = R.acos(a0)
        a2 = R.atan(a1)
        a3 = R.asinh(a2)
        a4 = R.acosh(a3)
        a5 = R.atanh(a4)
        return a5

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        a0 = R.call_tir(cls.tir_asin, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a1 = R.call_tir(cls.tir_acos, (a0,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a2 = R.call_tir(cls.tir_atan, (a1,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a3 = R.call_tir(cls.tir_asinh, (a2,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a4 = R.call_tir(cls.tir_acosh, (a3,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a5 = R.call_tir(cls.tir_atanh, (a4,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        return a5

    @T.prim_func(private=True)
    def tir_asin(var_x: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.asin(x[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_acos(var_a0: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a0 = T.match_buffer(var_a0, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a0[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.acos(a0[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_atan(var_a1: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a1 = T.match_buffer(var_a1, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a1[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.atan(a1[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_asinh(var_a2: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a2 = T.match_buffer(var_a2, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a2[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.asinh(a2[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_acosh(var_a3: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a3 = T.match_buffer(var_a3, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a3[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.acosh(a3[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_atanh(var_a4: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a4 = T.match_buffer(var_a4, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a4[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.atanh(a4[v_ax0, v_ax1])
