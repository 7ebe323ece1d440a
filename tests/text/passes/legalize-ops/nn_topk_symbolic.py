# PASSES: legalize-ops
# CHECKS: topk (k=2, int64 indices) of an (n, 5) tensor: one PrimFunc with two
# outputs; an opaque block keeps the best indices in order by insertion
# (strict comparison: ties keep the lower index), and a compute gathers the
# values
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="float32")):
        gv = R.topk(x, k=2, axis=-1, ret_type="both", largest=True, dtype="int64")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="float32")) -> R.Tuple(R.Tensor(("n", 2), dtype="float32"), R.Tensor(("n", 2), dtype="int64")):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.topk, (x,), out_sinfo=[R.Tensor((n, 2), dtype="float32"), R.Tensor((n, 2), dtype="int64")])
        return gv

    @T.prim_func(private=True)
    def topk(var_x: T.handle, var_topk_values: T.handle, var_topk_indices: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(5)))
        topk_values = T.match_buffer(var_topk_values, (n, T.int64(2)))
        topk_indices = T.match_buffer(var_topk_indices, (n, T.int64(2)), "int64")
        # with T.block("root"):
        with T.block("topk_indices"):
            T.reads(x[T.int64(0):n, T.int64(0):T.int64(5)])
            T.writes(topk_indices[T.int64(0):n, T.int64(0):T.int64(2)])
            for ax0, i in T.grid(n, T.int64(5)):
                if i < T.int64(2):
                    topk_indices[ax0, i] = i
                for t in range(T.min(i, T.int64(2))):
                    if x[ax0, i] > x[ax0, topk_indices[ax0, T.min(i, T.int64(2)) - t - T.int64(1)]]:
                        if T.min(i, T.int64(2)) - t < T.int64(2):
                            topk_indices[ax0, T.min(i, T.int64(2)) - t] = topk_indices[ax0, T.min(i, T.int64(2)) - t - T.int64(1)]
                        topk_indices[ax0, T.min(i, T.int64(2)) - t - T.int64(1)] = i
        for ax0, ax1 in T.grid(n, T.int64(2)):
            with T.block("topk_values"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(topk_indices[v_ax0, v_ax1], x[v_ax0, T.int64(0):T.int64(5)])
                T.writes(topk_values[v_ax0, v_ax1])
                topk_values[v_ax0, v_ax1] = x[v_ax0, topk_indices[v_ax0, v_ax1]]
