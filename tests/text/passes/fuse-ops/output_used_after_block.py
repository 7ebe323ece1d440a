# PASSES: fuse-ops
# CHECKS: an intermediate value that is a dataflow output (used after the block) ends its group: add and exp fuse with exp's result as the group output, relu (which also reads it) stays alone; a packed call between two elementwise ops blocks fusion
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        z = T.match_buffer(var_z, (n,))
        for i in range(n):
            with T.block("z"):
                vi = T.axis.spatial(n, i)
                z[vi] = x[vi] + y[vi]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                y[vi] = T.exp(x[vi])

    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                y[vi] = T.max(x[vi], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n,), dtype="float32"))
            e = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n,), dtype="float32"))
            r = R.call_tir(cls.relu, (e,), out_sinfo=R.Tensor((n,), dtype="float32"))
            p = R.call_dps_packed("my_kernel", (r,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.exp, (p,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(e, gv)
        return (e, gv)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        z = T.match_buffer(var_z, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("z"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi], y[vi])
                T.writes(z[vi])
                z[vi] = x[vi] + y[vi]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = T.exp(x[vi])

    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = T.max(x[vi], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            e: R.Tensor((n,), dtype="float32") = cls.fused_add_exp(x, y)
            r = R.call_tir(cls.relu, (e,), out_sinfo=R.Tensor((n,), dtype="float32"))
            p = R.call_dps_packed("my_kernel", (r,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.exp, (p,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(e, gv)
        return (e, gv)

    @R.function(private=True)
    def fused_add_exp(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n,), dtype="float32"))
            e = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(e)
        return e
