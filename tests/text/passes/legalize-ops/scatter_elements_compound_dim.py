# PASSES: legalize-ops
# CHECKS: scatter_elements into data whose leading dim is the compound n * 2 (a
# flattened ScatterND): the kernel takes n as a trailing scalar parameter,
# passed as tir_vars
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 2, 3), dtype="float32"), i: R.Tensor((4, 3), dtype="int64"), u: R.Tensor((4, 3), dtype="float32")):
        n = T.int64()
        flat = R.reshape(x, R.shape([n * 2, 3]))
        gv = R.scatter_elements(flat, i, u, axis=0, reduction="add")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 2, 3), dtype="float32"), i: R.Tensor((4, 3), dtype="int64"), u: R.Tensor((4, 3), dtype="float32")) -> R.Tensor(("n * 2", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        flat = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((n * 2, 3), dtype="float32"))
        gv = R.call_tir(cls.scatter_elements, (flat, i, u), out_sinfo=R.Tensor((n * 2, 3), dtype="float32"), tir_vars=R.shape([n]))
        return gv

    @T.prim_func(private=True)
    def reshape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(2), T.int64(3)))
        T_reshape = T.match_buffer(var_T_reshape, (n * T.int64(2), T.int64(3)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n * T.int64(2), T.int64(3)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(6), (v_ax0 + v_ax1 // T.int64(3)) % T.int64(2), v_ax1 % T.int64(3)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(3) + v_ax1) // T.int64(6), (v_ax0 + v_ax1 // T.int64(3)) % T.int64(2), v_ax1 % T.int64(3)]

    @T.prim_func(private=True)
    def scatter_elements(var_data: T.handle, indices: T.Buffer((T.int64(4), T.int64(3)), "int64"), updates: T.Buffer((T.int64(4), T.int64(3)), "float32"), var_out: T.handle, n: T.int64):
        T.func_attr({"tir.noalias": T.bool(True)})
        data = T.match_buffer(var_data, (n * T.int64(2), T.int64(3)))
        out = T.match_buffer(var_out, (n * T.int64(2), T.int64(3)))
        for i0, i1 in T.grid(n * T.int64(2), T.int64(3)):
            out[i0, i1] = data[i0, i1]
        for j0, j1 in T.grid(T.int64(4), T.int64(3)):
            out[T.Select(indices[j0, j1] < T.int64(0), indices[j0, j1] + n * T.int64(2), indices[j0, j1]), j1] = out[T.Select(indices[j0, j1] < T.int64(0), indices[j0, j1] + n * T.int64(2), indices[j0, j1]), j1] + updates[j0, j1]
