# PASSES: kill-after-last-use
# CHECKS: an intermediate tensor and its storage are killed right after their last use, tensor first; the returned ones are not
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def add_one(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Before
        s0 = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t0 = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        _ = cls.add_one(x, t0)
        s1 = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t1 = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        _1 = cls.add_one(t0, t1)
        return t1

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add_one(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = x[vi] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        s0: R.Object = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t0: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        R.memory.kill_storage(s0)
        _: R.Object = cls.add_one(x, t0)
        s1: R.Object = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t1: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        R.memory.kill_storage(s1)
        _1: R.Object = cls.add_one(t0, t1)
        R.memory.kill_tensor(t0)
        return t1
