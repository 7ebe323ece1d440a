# PASSES: annotate-tir-op-pattern
# CHECKS: loads whose indices are non-affine expressions of the store's iteration variables (floormod by a symbolic n, floordiv, a product of two of them) are injective (2), not opaque: a shape variable like n is constant in the kernel; an index that uses an iteration variable the store lacks is still no injective pattern (opaque without reduce axes)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def tile(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (m,))
        for i in range(m):
            with T.block("B"):
                vi = T.axis.spatial(m, i)
                B[vi] = A[vi % n]

    @T.prim_func(private=True)
    def gather_2d(A: T.Buffer((T.int64(8), T.int64(8)), "float32"), B: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        for i, j in T.grid(T.int64(4), T.int64(4)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi * vj % T.int64(8), vj // T.int64(2)] + A[vi, vj]

    @T.prim_func(private=True)
    def other_iteration_var(A: T.Buffer((T.int64(4), T.int64(4)), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i, j in T.grid(T.int64(4), T.int64(4)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi] = A[vi, vj % T.int64(2)]

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def tile(var_A: T.handle, var_B: T.handle):
        T.func_attr({"op_pattern": 2})
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (m,))
        for i in range(m):
            with T.block("B"):
                vi = T.axis.spatial(m, i)
                B[vi] = A[vi % n]

    @T.prim_func(private=True)
    def gather_2d(A: T.Buffer((T.int64(8), T.int64(8)), "float32"), B: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"op_pattern": 2})
        for i, j in T.grid(T.int64(4), T.int64(4)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi * vj % T.int64(8), vj // T.int64(2)] + A[vi, vj]

    @T.prim_func(private=True)
    def other_iteration_var(A: T.Buffer((T.int64(4), T.int64(4)), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 8})
        for i, j in T.grid(T.int64(4), T.int64(4)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi] = A[vi, vj % T.int64(2)]
