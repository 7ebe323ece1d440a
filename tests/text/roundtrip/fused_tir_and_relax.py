# A fused add+exp PrimFunc over symbolic shapes with int64 indices (TVM's
# FuseTIR output style), called with two inputs.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_add_exp(p_x: T.handle, p_y: T.handle, p_out: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(p_x, (n, T.int64(16)))
        y = T.match_buffer(p_y, (T.int64(16),))
        out = T.match_buffer(p_out, (n, T.int64(16)))
        T_add = T.alloc_buffer((n, T.int64(16)))
        for ax0, ax1 in T.grid(n, T.int64(16)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = x[v_ax0, v_ax1] + y[v_ax1]
        for i0, i1 in T.grid(n, T.int64(16)):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(T_add[v_i0, v_i1])
                T.writes(out[v_i0, v_i1])
                out[v_i0, v_i1] = T.exp(T_add[v_i0, v_i1])

    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32"), y: R.Tensor((16,), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.fused_add_exp, (x, y), out_sinfo=R.Tensor((n, 16), dtype="float32"))
            R.output(gv)
        return gv
