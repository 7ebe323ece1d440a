# PASSES: dead-code-elimination
# CHECKS: an unused private graph function is removed; a private PrimFunc reached through call_tir is kept (TVM test_unused_relax_func_symbolic_shape)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def tir_matmul(x_handle: T.handle, y_handle: T.handle, z_handle: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        x = T.match_buffer(x_handle, (m, n), "float32")
        y = T.match_buffer(y_handle, (n, k), "float32")
        z = T.match_buffer(z_handle, (m, k), "float32")
        for i, j, r in T.grid(m, k, n):
            with T.block("matmul"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    z[vi, vj] = T.float32(0.0)
                z[vi, vj] = z[vi, vj] + x[vi, vk] * y[vk, vj]

    @R.function(private=True)
    def unused_func(x: R.Tensor(("m", "n"), dtype="float32"), w: R.Tensor(("m", "n"), dtype="float32")):
        gv0 = R.add(x, w)
        return gv0

    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32"), w: R.Tensor(("n", "k"), dtype="float32")):
        m = T.int64()
        k = T.int64()
        cls = Before
        gv0 = R.call_tir(cls.tir_matmul, (x, w), out_sinfo=R.Tensor((m, k), dtype="float32"))
        return gv0

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def tir_matmul(x_handle: T.handle, y_handle: T.handle, z_handle: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        x = T.match_buffer(x_handle, (m, n), "float32")
        y = T.match_buffer(y_handle, (n, k), "float32")
        z = T.match_buffer(z_handle, (m, k), "float32")
        for i, j, r in T.grid(m, k, n):
            with T.block("matmul"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    z[vi, vj] = T.float32(0.0)
                z[vi, vj] = z[vi, vj] + x[vi, vk] * y[vk, vj]

    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32"), w: R.Tensor(("n", "k"), dtype="float32")):
        m = T.int64()
        k = T.int64()
        cls = Expected
        gv0 = R.call_tir(cls.tir_matmul, (x, w), out_sinfo=R.Tensor((m, k), dtype="float32"))
        return gv0
