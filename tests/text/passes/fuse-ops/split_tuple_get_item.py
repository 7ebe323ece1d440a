# PASSES: fuse-ops
# CHECKS: a multi-output call_tir (split), the tuple-get-items of its result and the elementwise ops after them fuse into one function (TVM test_fuse_tuple_get_elemwise); symbolic rows
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def split(var_x: T.handle, var_a: T.handle, var_b: T.handle):
        T.func_attr({"op_pattern": 2, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)))
        a = T.match_buffer(var_a, (n, T.int64(4)))
        b = T.match_buffer(var_b, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("a"):
                vi, vj = T.axis.remap("SS", [i, j])
                a[vi, vj] = x[vi, vj]
        for i, j in T.grid(n, T.int64(4)):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                b[vi, vj] = x[vi, vj + T.int64(4)]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.exp(x[vi, vj])

    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        z = T.match_buffer(var_z, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = x[vi, vj] + y[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.split, (x,), out_sinfo=[R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="float32")])
            lv1 = lv0[0]
            lv2 = R.call_tir(cls.exp, (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv3 = lv0[1]
            lv4 = R.call_tir(cls.exp, (lv3,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_tir(cls.add, (lv2, lv4), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def split(var_x: T.handle, var_a: T.handle, var_b: T.handle):
        T.func_attr({"op_pattern": 2, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)))
        a = T.match_buffer(var_a, (n, T.int64(4)))
        b = T.match_buffer(var_b, (n, T.int64(4)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
            with T.block("a"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(a[vi, vj])
                a[vi, vj] = x[vi, vj]
        for i, j in T.grid(n, T.int64(4)):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj + T.int64(4)])
                T.writes(b[vi, vj])
                b[vi, vj] = x[vi, vj + T.int64(4)]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.exp(x[vi, vj])

    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        z = T.match_buffer(var_z, (n, T.int64(4)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj], y[vi, vj])
                T.writes(z[vi, vj])
                z[vi, vj] = x[vi, vj] + y[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            gv: R.Tensor((n, 4), dtype="float32") = cls.fused_split_exp_exp_add(x)
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_split_exp_exp_add(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv0 = R.call_tir(cls.split, (x,), out_sinfo=[R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="float32")])
            lv1: R.Tensor((n, 4), dtype="float32") = lv0[0]
            lv2 = R.call_tir(cls.exp, (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv3: R.Tensor((n, 4), dtype="float32") = lv0[1]
            lv4 = R.call_tir(cls.exp, (lv3,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_tir(cls.add, (lv2, lv4), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv
