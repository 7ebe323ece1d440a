# PASSES: legalize-ops
# CHECKS: gather_elements reads the data at the (negative-wrapped) index along the axis; scatter_elements copies then updates sequentially in plain TIR loops
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((3, 4), dtype="float32"), i: R.Tensor((3, 2), dtype="int64"), u: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        lv = R.gather_elements(x, i, axis=1)
        gv = R.scatter_elements(x, i, u, axis=1, reduction="add")
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32"), i: R.Tensor(("k", "m"), dtype="int32"), u: R.Tensor(("k", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        lv = R.gather_elements(x, i, axis=0)
        gv = R.scatter_elements(x, i, u)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((3, 4), dtype="float32"), i: R.Tensor((3, 2), dtype="int64"), u: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        cls = Expected
        lv = R.call_tir(cls.gather_elements, (x, i), out_sinfo=R.Tensor((3, 2), dtype="float32"))
        gv = R.call_tir(cls.scatter_elements, (x, i, u), out_sinfo=R.Tensor((3, 4), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32"), i: R.Tensor(("k", "m"), dtype="int32"), u: R.Tensor(("k", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        cls = Expected
        lv = R.call_tir(cls.gather_elements1, (x, i), out_sinfo=R.Tensor((k, m), dtype="float32"))
        gv = R.call_tir(cls.scatter_elements1, (x, i, u), out_sinfo=R.Tensor((n, m), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def gather_elements(x: T.Buffer((T.int64(3), T.int64(4)), "float32"), i: T.Buffer((T.int64(3), T.int64(2)), "int64"), T_gather_elements: T.Buffer((T.int64(3), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(3), T.int64(2)):
            with T.block("T_gather_elements"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(i[v_ax0, v_ax1], x[v_ax0, T.int64(0):T.int64(4)])
                T.writes(T_gather_elements[v_ax0, v_ax1])
                T_gather_elements[v_ax0, v_ax1] = x[v_ax0, T.Select(i[v_ax0, v_ax1] < T.int64(0), i[v_ax0, v_ax1] + T.int64(4), i[v_ax0, v_ax1])]

    @T.prim_func(private=True)
    def scatter_elements(data: T.Buffer((T.int64(3), T.int64(4)), "float32"), indices: T.Buffer((T.int64(3), T.int64(2)), "int64"), updates: T.Buffer((T.int64(3), T.int64(2)), "float32"), out: T.Buffer((T.int64(3), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i0, i1 in T.grid(T.int64(3), T.int64(4)):
            out[i0, i1] = data[i0, i1]
        for j0, j1 in T.grid(T.int64(3), T.int64(2)):
            out[j0, T.Select(indices[j0, j1] < T.int64(0), indices[j0, j1] + T.int64(4), indices[j0, j1])] = out[j0, T.Select(indices[j0, j1] < T.int64(0), indices[j0, j1] + T.int64(4), indices[j0, j1])] + updates[j0, j1]

    @T.prim_func(private=True)
    def gather_elements1(var_x: T.handle, var_i: T.handle, var_T_gather_elements: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        k = T.int64()
        i = T.match_buffer(var_i, (k, m), "int32")
        T_gather_elements = T.match_buffer(var_T_gather_elements, (k, m))
        # with T.block("root"):
        for ax0, ax1 in T.grid(k, m):
            with T.block("T_gather_elements"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(i[v_ax0, v_ax1], x[T.int64(0):n, v_ax1])
                T.writes(T_gather_elements[v_ax0, v_ax1])
                T_gather_elements[v_ax0, v_ax1] = x[T.Select(T.Cast("int64", i[v_ax0, v_ax1]) < T.int64(0), T.Cast("int64", i[v_ax0, v_ax1]) + n, T.Cast("int64", i[v_ax0, v_ax1])), v_ax1]

    @T.prim_func(private=True)
    def scatter_elements1(var_data: T.handle, var_indices: T.handle, var_updates: T.handle, var_out: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        data = T.match_buffer(var_data, (n, m))
        k = T.int64()
        indices = T.match_buffer(var_indices, (k, m), "int32")
        updates = T.match_buffer(var_updates, (k, m))
        out = T.match_buffer(var_out, (n, m))
        for i0, i1 in T.grid(n, m):
            out[i0, i1] = data[i0, i1]
        for j0, j1 in T.grid(k, m):
            out[T.Select(T.Cast("int64", indices[j0, j1]) < T.int64(0), T.Cast("int64", indices[j0, j1]) + n, T.Cast("int64", indices[j0, j1])), j1] = updates[j0, j1]
