# PASSES: rewrite-dataflow-reshape
# CHECKS: call_tir of legalized reshape / squeeze / expand_dims PrimFuncs in a dataflow block become R.reshape; a transpose (not a row-major copy) and a call outside a dataflow block stay
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def reshape(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_reshape: T.Buffer((T.int64(8), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(8), T.int64(3)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(12), (v_ax0 * T.int64(3) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(3) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(12), (v_ax0 * T.int64(3) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(3) + v_ax1) % T.int64(4)]

    @T.prim_func(private=True)
    def squeeze(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_squeeze: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_squeeze"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, T.int64(0), v_ax1])
                T.writes(T_squeeze[v_ax0, v_ax1])
                T_squeeze[v_ax0, v_ax1] = x[v_ax0, T.int64(0), v_ax1]

    @T.prim_func(private=True)
    def expand_dims(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_expand_dims: T.Buffer((T.int64(1), T.int64(2), T.int64(1), T.int64(1), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, ax2, ax3, ax4 in T.grid(T.int64(1), T.int64(2), T.int64(1), T.int64(1), T.int64(3)):
            with T.block("T_expand_dims"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_ax4 = T.axis.remap("SSSSS", [ax0, ax1, ax2, ax3, ax4])
                T.reads(x[v_ax1, v_ax2, v_ax4])
                T.writes(T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4])
                T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = x[v_ax1, v_ax2, v_ax4]

    @T.prim_func(private=True)
    def transpose(y: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_transpose: T.Buffer((T.int64(2), T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("T_transpose"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(y[v_ax0, v_ax2, v_ax1])
                T.writes(T_transpose[v_ax0, v_ax1, v_ax2])
                T_transpose[v_ax0, v_ax1, v_ax2] = y[v_ax0, v_ax2, v_ax1]

    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32"), y: R.Tensor((2, 1, 3), dtype="float32")) -> R.Tuple(R.Tensor((8, 3), dtype="float32"), R.Tensor((1, 2, 1, 1, 3), dtype="float32"), R.Tensor((2, 4, 3), dtype="float32"), R.Tensor((8, 3), dtype="float32")):
        cls = Before
        with R.dataflow():
            a = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((8, 3), dtype="float32"))
            b = R.call_tir(cls.squeeze, (y,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            c = R.call_tir(cls.expand_dims, (y,), out_sinfo=R.Tensor((1, 2, 1, 1, 3), dtype="float32"))
            d = R.call_tir(cls.transpose, (x,), out_sinfo=R.Tensor((2, 4, 3), dtype="float32"))
            R.output(a, c, d)
        e = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((8, 3), dtype="float32"))
        return (a, c, d, e)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def reshape(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_reshape: T.Buffer((T.int64(8), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(8), T.int64(3)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(12), (v_ax0 * T.int64(3) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(3) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(12), (v_ax0 * T.int64(3) + v_ax1) // T.int64(4) % T.int64(3), (v_ax0 * T.int64(3) + v_ax1) % T.int64(4)]

    @T.prim_func(private=True)
    def squeeze(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_squeeze: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_squeeze"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, T.int64(0), v_ax1])
                T.writes(T_squeeze[v_ax0, v_ax1])
                T_squeeze[v_ax0, v_ax1] = x[v_ax0, T.int64(0), v_ax1]

    @T.prim_func(private=True)
    def expand_dims(x: T.Buffer((T.int64(2), T.int64(1), T.int64(3)), "float32"), T_expand_dims: T.Buffer((T.int64(1), T.int64(2), T.int64(1), T.int64(1), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, ax2, ax3, ax4 in T.grid(T.int64(1), T.int64(2), T.int64(1), T.int64(1), T.int64(3)):
            with T.block("T_expand_dims"):
                v_ax0, v_ax1, v_ax2, v_ax3, v_ax4 = T.axis.remap("SSSSS", [ax0, ax1, ax2, ax3, ax4])
                T.reads(x[v_ax1, v_ax2, v_ax4])
                T.writes(T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4])
                T_expand_dims[v_ax0, v_ax1, v_ax2, v_ax3, v_ax4] = x[v_ax1, v_ax2, v_ax4]

    @T.prim_func(private=True)
    def transpose(y: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_transpose: T.Buffer((T.int64(2), T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("T_transpose"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(y[v_ax0, v_ax2, v_ax1])
                T.writes(T_transpose[v_ax0, v_ax1, v_ax2])
                T_transpose[v_ax0, v_ax1, v_ax2] = y[v_ax0, v_ax2, v_ax1]

    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32"), y: R.Tensor((2, 1, 3), dtype="float32")) -> R.Tuple(R.Tensor((8, 3), dtype="float32"), R.Tensor((1, 2, 1, 1, 3), dtype="float32"), R.Tensor((2, 4, 3), dtype="float32"), R.Tensor((8, 3), dtype="float32")):
        cls = Expected
        with R.dataflow():
            a = R.reshape(x, R.shape([8, 3]))
            b = R.reshape(y, R.shape([2, 3]))
            c = R.reshape(y, R.shape([1, 2, 1, 1, 3]))
            d = R.call_tir(cls.transpose, (x,), out_sinfo=R.Tensor((2, 4, 3), dtype="float32"))
            R.output(a, c, d)
        e = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((8, 3), dtype="float32"))
        return (a, c, d, e)
