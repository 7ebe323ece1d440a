# PASSES: legalize-ops
# CHECKS: every broadcasting binary op on (n, 1, 4) and (3, 1): size-1 dims read at 0, comparisons produce bool, float floor_divide/floor_mod use floor
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 1, 4), dtype="float32"), y: R.Tensor((3, 1), dtype="float32")) -> R.Tensor(("n", 3, 4), dtype="bool"):
        n = T.int64()
        a0 = R.add(x, y)
        a1 = R.subtract(a0, y)
        a2 = R.multiply(a1, y)
        a3 = R.divide(a2, y)
        a4 = R.floor_divide(a3, y)
        a5 = R.power(a4, y)
        a6 = R.maximum(a5, y)
        a7 = R.minimum(a6, y)
        a8 = R.floor_mod(a7, y)
        c0 = R.equal(a8, y)
        c1 = R.not_equal(a8, y)
        c2 = R.less(a8, y)
        c3 = R.less_equal(a8, y)
        c4 = R.greater(a8, y)
        c5 = R.greater_equal(a8, y)
        c6 = R.logical_and(c0, c1)
        c7 = R.logical_or(c6, c2)
        return c7

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 1, 4), dtype="float32"), y: R.Tensor((3, 1), dtype="float32")) -> R.Tensor(("n", 3, 4), dtype="bool"):
        n = T.int64()
        cls = Expected
        a0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a1 = R.call_tir(cls.subtract, (a0, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a2 = R.call_tir(cls.multiply, (a1, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a3 = R.call_tir(cls.divide, (a2, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a4 = R.call_tir(cls.floor_divide, (a3, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a5 = R.call_tir(cls.power, (a4, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a6 = R.call_tir(cls.maximum, (a5, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a7 = R.call_tir(cls.minimum, (a6, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        a8 = R.call_tir(cls.floor_mod, (a7, y), out_sinfo=R.Tensor((n, 3, 4), dtype="float32"))
        c0 = R.call_tir(cls.equal, (a8, y), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c1 = R.call_tir(cls.not_equal, (a8, y), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c2 = R.call_tir(cls.less, (a8, y), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c3 = R.call_tir(cls.less_equal, (a8, y), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c4 = R.call_tir(cls.greater, (a8, y), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c5 = R.call_tir(cls.greater_equal, (a8, y), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c6 = R.call_tir(cls.logical_and, (c0, c1), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        c7 = R.call_tir(cls.logical_or, (c6, c2), out_sinfo=R.Tensor((n, 3, 4), dtype="bool"))
        return c7

    @T.prim_func(private=True)
    def add(var_x: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_add: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(1), T.int64(4)))
        T_add = T.match_buffer(var_T_add, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_add"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, T.int64(0), v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_add[v_ax0, v_ax1, v_ax2])
                T_add[v_ax0, v_ax1, v_ax2] = x[v_ax0, T.int64(0), v_ax2] + y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def subtract(var_a0: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_subtract: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a0 = T.match_buffer(var_a0, (n, T.int64(3), T.int64(4)))
        T_subtract = T.match_buffer(var_T_subtract, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_subtract"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a0[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_subtract[v_ax0, v_ax1, v_ax2])
                T_subtract[v_ax0, v_ax1, v_ax2] = a0[v_ax0, v_ax1, v_ax2] - y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def multiply(var_a1: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_multiply: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a1 = T.match_buffer(var_a1, (n, T.int64(3), T.int64(4)))
        T_multiply = T.match_buffer(var_T_multiply, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_multiply"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a1[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_multiply[v_ax0, v_ax1, v_ax2])
                T_multiply[v_ax0, v_ax1, v_ax2] = a1[v_ax0, v_ax1, v_ax2] * y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def divide(var_a2: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_divide: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a2 = T.match_buffer(var_a2, (n, T.int64(3), T.int64(4)))
        T_divide = T.match_buffer(var_T_divide, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_divide"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a2[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_divide[v_ax0, v_ax1, v_ax2])
                T_divide[v_ax0, v_ax1, v_ax2] = a2[v_ax0, v_ax1, v_ax2] / y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def floor_divide(var_a3: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_floor_divide: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a3 = T.match_buffer(var_a3, (n, T.int64(3), T.int64(4)))
        T_floor_divide = T.match_buffer(var_T_floor_divide, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_floor_divide"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a3[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_floor_divide[v_ax0, v_ax1, v_ax2])
                T_floor_divide[v_ax0, v_ax1, v_ax2] = T.floor(a3[v_ax0, v_ax1, v_ax2] / y[v_ax1, T.int64(0)])

    @T.prim_func(private=True)
    def power(var_a4: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_power: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a4 = T.match_buffer(var_a4, (n, T.int64(3), T.int64(4)))
        T_power = T.match_buffer(var_T_power, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_power"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a4[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_power[v_ax0, v_ax1, v_ax2])
                T_power[v_ax0, v_ax1, v_ax2] = T.pow(a4[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])

    @T.prim_func(private=True)
    def maximum(var_a5: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_maximum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a5 = T.match_buffer(var_a5, (n, T.int64(3), T.int64(4)))
        T_maximum = T.match_buffer(var_T_maximum, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_maximum"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a5[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_maximum[v_ax0, v_ax1, v_ax2])
                T_maximum[v_ax0, v_ax1, v_ax2] = T.max(a5[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])

    @T.prim_func(private=True)
    def minimum(var_a6: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_minimum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a6 = T.match_buffer(var_a6, (n, T.int64(3), T.int64(4)))
        T_minimum = T.match_buffer(var_T_minimum, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_minimum"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a6[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_minimum[v_ax0, v_ax1, v_ax2])
                T_minimum[v_ax0, v_ax1, v_ax2] = T.min(a6[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])

    @T.prim_func(private=True)
    def floor_mod(var_a7: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_floor_mod: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a7 = T.match_buffer(var_a7, (n, T.int64(3), T.int64(4)))
        T_floor_mod = T.match_buffer(var_T_floor_mod, (n, T.int64(3), T.int64(4)))
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_floor_mod"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a7[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_floor_mod[v_ax0, v_ax1, v_ax2])
                T_floor_mod[v_ax0, v_ax1, v_ax2] = a7[v_ax0, v_ax1, v_ax2] - T.floor(a7[v_ax0, v_ax1, v_ax2] / y[v_ax1, T.int64(0)]) * y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def equal(var_a8: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_equal: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3), T.int64(4)))
        T_equal = T.match_buffer(var_T_equal, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_equal"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a8[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_equal[v_ax0, v_ax1, v_ax2])
                T_equal[v_ax0, v_ax1, v_ax2] = a8[v_ax0, v_ax1, v_ax2] == y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def not_equal(var_a8: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_not_equal: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3), T.int64(4)))
        T_not_equal = T.match_buffer(var_T_not_equal, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_not_equal"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a8[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_not_equal[v_ax0, v_ax1, v_ax2])
                T_not_equal[v_ax0, v_ax1, v_ax2] = a8[v_ax0, v_ax1, v_ax2] != y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def less(var_a8: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_less: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3), T.int64(4)))
        T_less = T.match_buffer(var_T_less, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_less"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a8[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_less[v_ax0, v_ax1, v_ax2])
                T_less[v_ax0, v_ax1, v_ax2] = a8[v_ax0, v_ax1, v_ax2] < y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def less_equal(var_a8: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_less_equal: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3), T.int64(4)))
        T_less_equal = T.match_buffer(var_T_less_equal, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_less_equal"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a8[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_less_equal[v_ax0, v_ax1, v_ax2])
                T_less_equal[v_ax0, v_ax1, v_ax2] = a8[v_ax0, v_ax1, v_ax2] <= y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def greater(var_a8: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_greater: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3), T.int64(4)))
        T_greater = T.match_buffer(var_T_greater, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_greater"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a8[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_greater[v_ax0, v_ax1, v_ax2])
                T_greater[v_ax0, v_ax1, v_ax2] = a8[v_ax0, v_ax1, v_ax2] > y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def greater_equal(var_a8: T.handle, y: T.Buffer((T.int64(3), T.int64(1)), "float32"), var_T_greater_equal: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3), T.int64(4)))
        T_greater_equal = T.match_buffer(var_T_greater_equal, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_greater_equal"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(a8[v_ax0, v_ax1, v_ax2], y[v_ax1, T.int64(0)])
                T.writes(T_greater_equal[v_ax0, v_ax1, v_ax2])
                T_greater_equal[v_ax0, v_ax1, v_ax2] = a8[v_ax0, v_ax1, v_ax2] >= y[v_ax1, T.int64(0)]

    @T.prim_func(private=True)
    def logical_and(var_c0: T.handle, var_c1: T.handle, var_T_logical_and: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        c0 = T.match_buffer(var_c0, (n, T.int64(3), T.int64(4)), "bool")
        c1 = T.match_buffer(var_c1, (n, T.int64(3), T.int64(4)), "bool")
        T_logical_and = T.match_buffer(var_T_logical_and, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_logical_and"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(c0[v_ax0, v_ax1, v_ax2], c1[v_ax0, v_ax1, v_ax2])
                T.writes(T_logical_and[v_ax0, v_ax1, v_ax2])
                T_logical_and[v_ax0, v_ax1, v_ax2] = c0[v_ax0, v_ax1, v_ax2] and c1[v_ax0, v_ax1, v_ax2]

    @T.prim_func(private=True)
    def logical_or(var_c6: T.handle, var_c2: T.handle, var_T_logical_or: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        c6 = T.match_buffer(var_c6, (n, T.int64(3), T.int64(4)), "bool")
        c2 = T.match_buffer(var_c2, (n, T.int64(3), T.int64(4)), "bool")
        T_logical_or = T.match_buffer(var_T_logical_or, (n, T.int64(3), T.int64(4)), "bool")
        for ax0, ax1, ax2 in T.grid(n, T.int64(3), T.int64(4)):
            with T.block("T_logical_or"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(c6[v_ax0, v_ax1, v_ax2], c2[v_ax0, v_ax1, v_ax2])
                T.writes(T_logical_or[v_ax0, v_ax1, v_ax2])
                T_logical_or[v_ax0, v_ax1, v_ax2] = c6[v_ax0, v_ax1, v_ax2] or c2[v_ax0, v_ax1, v_ax2]
