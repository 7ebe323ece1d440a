# PASSES: legalize-ops
# CHECKS: integer floor_divide/floor_mod are // and %, divide truncates, power goes through float64; a comparison of int32 with float32 compares in float32
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="int32"), y: R.Tensor((3,), dtype="int32"), f: R.Tensor((3,), dtype="float32")) -> R.Tensor((2, 3), dtype="bool"):
        a0 = R.floor_divide(x, y)
        a1 = R.floor_mod(a0, y)
        a2 = R.divide(a1, y)
        a3 = R.power(a2, y)
        c0 = R.less(a3, f)
        return c0

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="int32"), y: R.Tensor((3,), dtype="int32"), f: R.Tensor((3,), dtype="float32")) -> R.Tensor((2, 3), dtype="bool"):
        cls = Expected
        a0 = R.call_tir(cls.floor_divide, (x, y), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        a1 = R.call_tir(cls.floor_mod, (a0, y), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        a2 = R.call_tir(cls.divide, (a1, y), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        a3 = R.call_tir(cls.power, (a2, y), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        c0 = R.call_tir(cls.less, (a3, f), out_sinfo=R.Tensor((2, 3), dtype="bool"))
        return c0

    @T.prim_func(private=True)
    def floor_divide(x: T.Buffer((T.int64(2), T.int64(3)), "int32"), y: T.Buffer((T.int64(3),), "int32"), T_floor_divide: T.Buffer((T.int64(2), T.int64(3)), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_floor_divide"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_floor_divide[v_ax0, v_ax1])
                T_floor_divide[v_ax0, v_ax1] = x[v_ax0, v_ax1] // y[v_ax1]

    @T.prim_func(private=True)
    def floor_mod(a0: T.Buffer((T.int64(2), T.int64(3)), "int32"), y: T.Buffer((T.int64(3),), "int32"), T_floor_mod: T.Buffer((T.int64(2), T.int64(3)), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_floor_mod"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a0[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_floor_mod[v_ax0, v_ax1])
                T_floor_mod[v_ax0, v_ax1] = a0[v_ax0, v_ax1] % y[v_ax1]

    @T.prim_func(private=True)
    def divide(a1: T.Buffer((T.int64(2), T.int64(3)), "int32"), y: T.Buffer((T.int64(3),), "int32"), T_divide: T.Buffer((T.int64(2), T.int64(3)), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_divide"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a1[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_divide[v_ax0, v_ax1])
                T_divide[v_ax0, v_ax1] = T.Div(a1[v_ax0, v_ax1], y[v_ax1])

    @T.prim_func(private=True)
    def power(a2: T.Buffer((T.int64(2), T.int64(3)), "int32"), y: T.Buffer((T.int64(3),), "int32"), T_power: T.Buffer((T.int64(2), T.int64(3)), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_power"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a2[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_power[v_ax0, v_ax1])
                T_power[v_ax0, v_ax1] = T.Cast("int32", T.pow(T.Cast("float64", a2[v_ax0, v_ax1]), T.Cast("float64", y[v_ax1])))

    @T.prim_func(private=True)
    def less(a3: T.Buffer((T.int64(2), T.int64(3)), "int32"), f: T.Buffer((T.int64(3),), "float32"), T_less: T.Buffer((T.int64(2), T.int64(3)), "bool")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_less"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a3[v_ax0, v_ax1], f[v_ax1])
                T.writes(T_less[v_ax0, v_ax1])
                T_less[v_ax0, v_ax1] = T.Cast("float32", a3[v_ax0, v_ax1]) < f[v_ax1]
