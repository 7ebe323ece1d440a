# PASSES: annotate-tir-op-pattern
# CHECKS: symbolic extents do not matter; a max reduction over two reduce axes into a unit-kept output dim is comm-reduce (3)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def row_max(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(var_A, (n, m, T.int64(4)))
        B = T.match_buffer(var_B, (n, T.int64(1)))
        for i, j, k0, k1 in T.grid(n, T.int64(1), m, T.int64(4)):
            with T.block("B"):
                vi, vj, vk0, vk1 = T.axis.remap("SSRR", [i, j, k0, k1])
                with T.init():
                    B[vi, vj] = T.float32(-3.4028234663852886e+38)
                B[vi, vj] = T.max(B[vi, vj], A[vi, vk0, vk1])

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def row_max(var_A: T.handle, var_B: T.handle):
        T.func_attr({"op_pattern": 3})
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(var_A, (n, m, T.int64(4)))
        B = T.match_buffer(var_B, (n, T.int64(1)))
        for i, j, k0, k1 in T.grid(n, T.int64(1), m, T.int64(4)):
            with T.block("B"):
                vi, vj, vk0, vk1 = T.axis.remap("SSRR", [i, j, k0, k1])
                with T.init():
                    B[vi, vj] = T.float32(-3.4028234663852886e+38)
                B[vi, vj] = T.max(B[vi, vj], A[vi, vk0, vk1])
