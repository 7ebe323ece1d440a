# PASSES: legalize-ops
# CHECKS: inference dropout: the data passes unchanged, the mask is ones
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        gv = R.nn.dropout(x, rate=0.5)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        cls = Expected
        gv = R.call_tir(cls.dropout, (x,), out_sinfo=[R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")])
        return gv

    @T.prim_func(private=True)
    def dropout(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), dropout: T.Buffer((T.int64(2), T.int64(3)), "float32"), dropout_mask: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("dropout"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(dropout[v_ax0, v_ax1])
                dropout[v_ax0, v_ax1] = x[v_ax0, v_ax1]
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("dropout_mask"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(dropout_mask[v_ax0, v_ax1])
                dropout_mask[v_ax0, v_ax1] = T.float32(1.0)
