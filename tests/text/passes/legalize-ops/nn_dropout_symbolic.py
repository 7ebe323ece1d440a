# PASSES: legalize-ops
# CHECKS: inference dropout on a symbolic shape
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")):
        gv = R.nn.dropout(x, rate=0.1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tensor(("n", "m"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.dropout, (x,), out_sinfo=[R.Tensor((n, m), dtype="float32"), R.Tensor((n, m), dtype="float32")])
        return gv

    @T.prim_func(private=True)
    def dropout(var_x: T.handle, var_dropout: T.handle, var_dropout_mask: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        dropout = T.match_buffer(var_dropout, (n, m))
        dropout_mask = T.match_buffer(var_dropout_mask, (n, m))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, m):
            with T.block("dropout"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(dropout[v_ax0, v_ax1])
                dropout[v_ax0, v_ax1] = x[v_ax0, v_ax1]
        for ax0, ax1 in T.grid(n, m):
            with T.block("dropout_mask"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(dropout_mask[v_ax0, v_ax1])
                dropout_mask[v_ax0, v_ax1] = T.float32(1.0)
