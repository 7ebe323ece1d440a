# PASSES: legalize-ops
# CHECKS: a 0-d constant operand of a binary op is inlined as a literal (x2 first, else x1), as TVM's legalization does; a non-scalar constant stays a tensor argument
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        a = R.add(x, R.const(1.5, "float32"))
        b = R.subtract(R.const(2.0, "float32"), a)
        c = R.multiply(b, R.const([1.0, 2.0, 3.0], "float32"))
        return c

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(var_x: T.handle, var_T_add: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        T_add = T.match_buffer(var_T_add, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = x[v_ax0, v_ax1] + T.float32(1.5)

    @T.prim_func(private=True)
    def subtract(var_a: T.handle, var_T_subtract: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a = T.match_buffer(var_a, (n, T.int64(3)))
        T_subtract = T.match_buffer(var_T_subtract, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_subtract"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a[v_ax0, v_ax1])
                T.writes(T_subtract[v_ax0, v_ax1])
                T_subtract[v_ax0, v_ax1] = T.float32(2.0) - a[v_ax0, v_ax1]

    @T.prim_func(private=True)
    def multiply(var_b: T.handle, c: T.Buffer((T.int64(3),), "float32"), var_T_multiply: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        b = T.match_buffer(var_b, (n, T.int64(3)))
        T_multiply = T.match_buffer(var_T_multiply, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("T_multiply"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(b[v_ax0, v_ax1], c[v_ax1])
                T.writes(T_multiply[v_ax0, v_ax1])
                T_multiply[v_ax0, v_ax1] = b[v_ax0, v_ax1] * c[v_ax1]

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        a = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        b = R.call_tir(cls.subtract, (a,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        c = R.call_tir(cls.multiply, (b, R.const([1.0, 2.0, 3.0], "float32")), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        return c
