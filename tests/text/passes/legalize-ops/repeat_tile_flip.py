# PASSES: legalize-ops
# CHECKS: repeat reads index // repeats (flattened when axis is None), tile reads index % dim after padding with leading axes, flip reads dim - 1 - index (TVM test_repeat, test_tile, test_flip)
@I.ir_module
class Before:
    @R.function
    def static(x: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        lv = R.repeat(x, repeats=2, axis=1)
        lv1 = R.repeat(x, repeats=2)
        lv2 = R.tile(x, repeats=[2, 1, 3])
        gv = R.flip(x, axis=0)
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        lv = R.repeat(x, repeats=3, axis=0)
        lv1 = R.tile(x, repeats=[2])
        gv = R.flip(x, axis=-1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def static(x: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        cls = Expected
        lv = R.call_tir(cls.repeat, (x,), out_sinfo=R.Tensor((3, 4), dtype="float32"))
        lv1 = R.call_tir(cls.repeat1, (x,), out_sinfo=R.Tensor((12,), dtype="float32"))
        lv2 = R.call_tir(cls.tile, (x,), out_sinfo=R.Tensor((2, 3, 6), dtype="float32"))
        gv = R.call_tir(cls.flip, (x,), out_sinfo=R.Tensor((3, 2), dtype="float32"))
        return gv

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        lv = R.call_tir(cls.repeat2, (x,), out_sinfo=R.Tensor((n * 3, m), dtype="float32"))
        lv1 = R.call_tir(cls.tile1, (x,), out_sinfo=R.Tensor((n, m * 2), dtype="float32"))
        gv = R.call_tir(cls.flip1, (x,), out_sinfo=R.Tensor((n, m), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def repeat(x: T.Buffer((T.int64(3), T.int64(2)), "float32"), T_repeat: T.Buffer((T.int64(3), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(3), T.int64(4)):
            with T.block("T_repeat"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1 // T.int64(2)])
                T.writes(T_repeat[v_ax0, v_ax1])
                T_repeat[v_ax0, v_ax1] = x[v_ax0, v_ax1 // T.int64(2)]

    @T.prim_func(private=True)
    def repeat1(x: T.Buffer((T.int64(3), T.int64(2)), "float32"), T_repeat: T.Buffer((T.int64(12),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0 in range(T.int64(12)):
            with T.block("T_repeat"):
                v_ax0 = T.axis.spatial(T.int64(12), ax0)
                T.reads(x[v_ax0 // T.int64(4), v_ax0 // T.int64(2) % T.int64(2)])
                T.writes(T_repeat[v_ax0])
                T_repeat[v_ax0] = x[v_ax0 // T.int64(4), v_ax0 // T.int64(2) % T.int64(2)]

    @T.prim_func(private=True)
    def tile(x: T.Buffer((T.int64(3), T.int64(2)), "float32"), T_tile: T.Buffer((T.int64(2), T.int64(3), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(2), T.int64(3), T.int64(6)):
            with T.block("T_tile"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax1 % T.int64(3), v_ax2 % T.int64(2)])
                T.writes(T_tile[v_ax0, v_ax1, v_ax2])
                T_tile[v_ax0, v_ax1, v_ax2] = x[v_ax1 % T.int64(3), v_ax2 % T.int64(2)]

    @T.prim_func(private=True)
    def flip(x: T.Buffer((T.int64(3), T.int64(2)), "float32"), T_reverse_sequence: T.Buffer((T.int64(3), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(3), T.int64(2)):
            with T.block("T_reverse_sequence"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[T.int64(2) - v_ax0, v_ax1])
                T.writes(T_reverse_sequence[v_ax0, v_ax1])
                T_reverse_sequence[v_ax0, v_ax1] = x[T.int64(2) - v_ax0, v_ax1]

    @T.prim_func(private=True)
    def repeat2(var_x: T.handle, var_T_repeat: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        T_repeat = T.match_buffer(var_T_repeat, (n * T.int64(3), m))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n * T.int64(3), m):
            with T.block("T_repeat"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0 // T.int64(3), v_ax1])
                T.writes(T_repeat[v_ax0, v_ax1])
                T_repeat[v_ax0, v_ax1] = x[v_ax0 // T.int64(3), v_ax1]

    @T.prim_func(private=True)
    def tile1(var_x: T.handle, var_T_tile: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        T_tile = T.match_buffer(var_T_tile, (n, m * T.int64(2)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, m * T.int64(2)):
            with T.block("T_tile"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0 % n, v_ax1 % m])
                T.writes(T_tile[v_ax0, v_ax1])
                T_tile[v_ax0, v_ax1] = x[v_ax0 % n, v_ax1 % m]

    @T.prim_func(private=True)
    def flip1(var_x: T.handle, var_T_reverse_sequence: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m))
        T_reverse_sequence = T.match_buffer(var_T_reverse_sequence, (n, m))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, m):
            with T.block("T_reverse_sequence"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, m - T.int64(1) - v_ax1])
                T.writes(T_reverse_sequence[v_ax0, v_ax1])
                T_reverse_sequence[v_ax0, v_ax1] = x[v_ax0, m - T.int64(1) - v_ax1]
