# PASSES: annotate-tir-op-pattern
# CHECKS: loads indexed like the store are elemwise (0); a load with a subset of the store's indices in order is broadcast (1), mixed with an elemwise load it stays elemwise; transposed indices are injective (2)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4), T.int64(3)), "float32"), B: T.Buffer((T.int64(4), T.int64(3)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vi, vj]

    @T.prim_func(private=True)
    def add_bias(A: T.Buffer((T.int64(4), T.int64(3)), "float32"), B: T.Buffer((T.int64(3),), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vj]

    @T.prim_func(private=True)
    def expand(A: T.Buffer((T.int64(1), T.int64(3)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[T.int64(0), vj]

    @T.prim_func(private=True)
    def transpose(A: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vj, vi]

    @R.function
    def main(x: R.Tensor((4, 3), dtype="float32")) -> R.Tensor((4, 3), dtype="float32"):
        cls = Before
        y = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((4, 3), dtype="float32"))
        return y

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4), T.int64(3)), "float32"), B: T.Buffer((T.int64(4), T.int64(3)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 0})
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vi, vj]

    @T.prim_func(private=True)
    def add_bias(A: T.Buffer((T.int64(4), T.int64(3)), "float32"), B: T.Buffer((T.int64(3),), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 0})
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vj]

    @T.prim_func(private=True)
    def expand(A: T.Buffer((T.int64(1), T.int64(3)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 1})
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[T.int64(0), vj]

    @T.prim_func(private=True)
    def transpose(A: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 2})
        for i, j in T.grid(T.int64(4), T.int64(3)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vj, vi]

    @R.function
    def main(x: R.Tensor((4, 3), dtype="float32")) -> R.Tensor((4, 3), dtype="float32"):
        cls = Expected
        y = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((4, 3), dtype="float32"))
        return y
