# PASSES: fuse-ops
# CHECKS: an elementwise chain over a symbolic batch (add -> exp -> relu) becomes one primitive function; the struct info of its parameter and result stays symbolic
@I.ir_module
class Before:
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
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.max(x[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv1 = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
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
    def relu(var_x: T.handle, var_y: T.handle):
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
                y[vi, vj] = T.max(x[vi, vj], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            gv: R.Tensor((n, 4), dtype="float32") = cls.fused_add_exp_relu(x, y)
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_add_exp_relu(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv1 = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv
