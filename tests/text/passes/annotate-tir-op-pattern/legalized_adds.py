# PASSES: legalize-ops,annotate-tir-op-pattern
# CHECKS: legalized adds are classified from their blocks: same-shape operands are elemwise (0), an add whose loads all broadcast is broadcast (1)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((1, 3), dtype="float32"), z: R.Tensor((2, 1), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        a = R.add(x, x)
        b = R.add(y, z)
        return b

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), x_1: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], x_1[v_ax0, v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = x[v_ax0, v_ax1] + x_1[v_ax0, v_ax1]

    @T.prim_func(private=True)
    def add1(y: T.Buffer((T.int64(1), T.int64(3)), "float32"), z: T.Buffer((T.int64(2), T.int64(1)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 1, "tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(y[T.int64(0), v_ax1], z[v_ax0, T.int64(0)])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = y[T.int64(0), v_ax1] + z[v_ax0, T.int64(0)]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((1, 3), dtype="float32"), z: R.Tensor((2, 1), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Expected
        a = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b = R.call_tir(cls.add1, (y, z), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        return b
