# PASSES: fuse-ops-by-pattern,legalize-ops,fuse-tir
# CHECKS: the composite function made by the pattern is legalized inside and merged by fuse-tir into one PrimFunc (matmul, bias add and relu loop nests, two intermediates allocated in the root block), called with one call_tir; symbolic batch
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 2), dtype="float32"), bias: R.Tensor((2,), dtype="float32")) -> R.Tensor(("n", 2), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, bias)
            gv = R.nn.relu(lv1)
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 2), dtype="float32"), bias: R.Tensor((2,), dtype="float32")) -> R.Tensor(("n", 2), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            gv = R.call_tir(cls.fused_relax_matmul_relax_add_relax_nn_relu, (x, w, bias), out_sinfo=R.Tensor((n, 2), dtype="float32"))
            R.output(gv)
        return gv

    @T.prim_func(private=True)
    def fused_relax_matmul_relax_add_relax_nn_relu(p_x: T.handle, w: T.Buffer((T.int64(4), T.int64(2)), "float32"), bias: T.Buffer((T.int64(2),), "float32"), p_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(p_x, (n, T.int64(4)))
        compute = T.match_buffer(p_compute, (n, T.int64(2)))
        # with T.block("root"):
        matmul = T.alloc_buffer((n, T.int64(2)))
        T_add = T.alloc_buffer((n, T.int64(2)))
        for ax0, ax1, k in T.grid(n, T.int64(2), T.int64(4)):
            with T.block("matmul"):
                v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
                T.reads(x[v_ax0, v_k], w[v_k, v_ax1])
                T.writes(matmul[v_ax0, v_ax1])
                with T.init():
                    matmul[v_ax0, v_ax1] = T.float32(0.0)
                matmul[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + x[v_ax0, v_k] * w[v_k, v_ax1]
        for ax0, ax1 in T.grid(n, T.int64(2)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(matmul[v_ax0, v_ax1], bias[v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + bias[v_ax1]
        for ax0, ax1 in T.grid(n, T.int64(2)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(T_add[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.max(T_add[v_ax0, v_ax1], T.float32(0.0))
