# PASSES: annotate-tir-op-pattern
# CHECKS: a block storing to two different positions is opaque (8); a block without reduce axes whose load uses a variable the store lacks is opaque (8); a nonzero op_pattern already present is kept; a zero one is recomputed
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def two_stores(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(8),), "float32")):
        for i in range(T.int64(4)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(4), i)
                C[vi * T.int64(2)] = A[vi]
                C[vi * T.int64(2) + T.int64(1)] = A[vi]

    @T.prim_func(private=True)
    def gather(A: T.Buffer((T.int64(4),), "float32"), I: T.Buffer((T.int64(3),), "int64"), C: T.Buffer((T.int64(3),), "float32")):
        for i in range(T.int64(3)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(3), i)
                C[vi] = A[I[vi]]

    @T.prim_func(private=True)
    def marked(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 8})
        for i in range(T.int64(4)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(4), i)
                C[vi] = A[vi]

    @T.prim_func(private=True)
    def marked_zero(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 0})
        for i in range(T.int64(4)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(4), i)
                C[vi] = A[T.int64(3) - vi]

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def two_stores(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"op_pattern": 8})
        for i in range(T.int64(4)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(4), i)
                C[vi * T.int64(2)] = A[vi]
                C[vi * T.int64(2) + T.int64(1)] = A[vi]

    @T.prim_func(private=True)
    def gather(A: T.Buffer((T.int64(4),), "float32"), I: T.Buffer((T.int64(3),), "int64"), C: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"op_pattern": 8})
        for i in range(T.int64(3)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(3), i)
                C[vi] = A[I[vi]]

    @T.prim_func(private=True)
    def marked(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 8})
        for i in range(T.int64(4)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(4), i)
                C[vi] = A[vi]

    @T.prim_func(private=True)
    def marked_zero(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 2})
        for i in range(T.int64(4)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(4), i)
                C[vi] = A[T.int64(3) - vi]
