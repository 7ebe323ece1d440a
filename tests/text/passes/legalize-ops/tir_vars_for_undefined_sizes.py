# PASSES: legalize-ops
# CHECKS: a size variable that no buffer shape defines by itself (n in n * 2) becomes a scalar parameter passed through tir_vars
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n * 2",), dtype="float32")) -> R.Tensor(("n * 2",), dtype="float32"):
        n = T.int64()
        gv = R.add(y, y)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(var_y: T.handle, var_y_1: T.handle, var_T_add: T.handle, n: T.int64):
        T.func_attr({"tir.noalias": T.bool(True)})
        y = T.match_buffer(var_y, (n * T.int64(2),))
        y_1 = T.match_buffer(var_y_1, (n * T.int64(2),))
        T_add = T.match_buffer(var_T_add, (n * T.int64(2),))
        for ax0 in range(n * T.int64(2)):
            with T.block("T_add"):
                v_ax0 = T.axis.spatial(n * T.int64(2), ax0)
                T.reads(y[v_ax0], y_1[v_ax0])
                T.writes(T_add[v_ax0])
                T_add[v_ax0] = y[v_ax0] + y_1[v_ax0]

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n * 2",), dtype="float32")) -> R.Tensor(("n * 2",), dtype="float32"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.add, (y, y), out_sinfo=R.Tensor((n * 2,), dtype="float32"), tir_vars=R.shape([n]))
        return gv
