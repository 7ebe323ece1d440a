# PASSES: legalize-ops
# CHECKS: symbolic shapes reach the PrimFunc as match_buffer dims; a size-1 dimension broadcasts by index 0 (TVM test_add_symbolic)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, "m"), dtype="float32"), y: R.Tensor(("n", 1, 1), dtype="float32")) -> R.Tensor(("n", 1, "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        gv = R.add(x, y)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_T_add: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        m = T.int64()
        x = T.match_buffer(var_x, (T.int64(1), m))
        n = T.int64()
        y = T.match_buffer(var_y, (n, T.int64(1), T.int64(1)))
        T_add = T.match_buffer(var_T_add, (n, T.int64(1), m))
        for ax0, ax1, ax2 in T.grid(n, T.int64(1), m):
            with T.block("T_add"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[T.int64(0), v_ax2], y[v_ax0, T.int64(0), T.int64(0)])
                T.writes(T_add[v_ax0, v_ax1, v_ax2])
                T_add[v_ax0, v_ax1, v_ax2] = x[T.int64(0), v_ax2] + y[v_ax0, T.int64(0), T.int64(0)]

    @R.function
    def main(x: R.Tensor((1, "m"), dtype="float32"), y: R.Tensor(("n", 1, 1), dtype="float32")) -> R.Tensor(("n", 1, "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 1, m), dtype="float32"))
        return gv
