# PASSES: legalize-ops
# CHECKS: argsort (descending, int64) along the last axis writes its indices
# directly; sort along axis 0 sorts indices into an intermediate buffer and
# gathers the values
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        a = R.argsort(x, axis=-1, descending=True, dtype="int64")
        s = R.sort(x, axis=0)
        return (a, s)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="int64"), R.Tensor((2, 3), dtype="float32")):
        cls = Expected
        a = R.call_tir(cls.argsort, (x,), out_sinfo=R.Tensor((2, 3), dtype="int64"))
        s = R.call_tir(cls.sort, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        return (a, s)

    @T.prim_func(private=True)
    def argsort(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), argsort: T.Buffer((T.int64(2), T.int64(3)), "int64")):
        T.func_attr({"tir.noalias": T.bool(True)})
        with T.block("root"):
            T.reads()
            T.writes()
            with T.block("argsort"):
                T.reads(x[T.int64(0):T.int64(2), T.int64(0):T.int64(3)])
                T.writes(argsort[T.int64(0):T.int64(2), T.int64(0):T.int64(3)])
                for ax0, i in T.grid(T.int64(2), T.int64(3)):
                    if i < T.int64(3):
                        argsort[ax0, i] = i
                    for t in range(T.min(i, T.int64(3))):
                        if x[ax0, i] > x[ax0, argsort[ax0, T.min(i, T.int64(3)) - t - T.int64(1)]]:
                            if T.min(i, T.int64(3)) - t < T.int64(3):
                                argsort[ax0, T.min(i, T.int64(3)) - t] = argsort[ax0, T.min(i, T.int64(3)) - t - T.int64(1)]
                            argsort[ax0, T.min(i, T.int64(3)) - t - T.int64(1)] = i

    @T.prim_func(private=True)
    def sort(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), sort: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        sort_indices = T.alloc_buffer((T.int64(2), T.int64(3)), "int64")
        with T.block("sort_indices"):
            T.reads(x[T.int64(0):T.int64(2), T.int64(0):T.int64(3)])
            T.writes(sort_indices[T.int64(0):T.int64(2), T.int64(0):T.int64(3)])
            for ax1, i in T.grid(T.int64(3), T.int64(2)):
                if i < T.int64(2):
                    sort_indices[i, ax1] = i
                for t in range(T.min(i, T.int64(2))):
                    if x[i, ax1] < x[sort_indices[T.min(i, T.int64(2)) - t - T.int64(1), ax1], ax1]:
                        if T.min(i, T.int64(2)) - t < T.int64(2):
                            sort_indices[T.min(i, T.int64(2)) - t, ax1] = sort_indices[T.min(i, T.int64(2)) - t - T.int64(1), ax1]
                        sort_indices[T.min(i, T.int64(2)) - t - T.int64(1), ax1] = i
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("sort"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(sort_indices[v_ax0, v_ax1], x[T.int64(0):T.int64(2), v_ax1])
                T.writes(sort[v_ax0, v_ax1])
                sort[v_ax0, v_ax1] = x[sort_indices[v_ax0, v_ax1], v_ax1]
