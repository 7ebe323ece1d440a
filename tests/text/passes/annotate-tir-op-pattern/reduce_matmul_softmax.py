# PASSES: annotate-tir-op-pattern
# CHECKS: a plain reduction is comm-reduce (3); multiply-accumulate with reuse (matmul) is out-elemwise-fusable (4); a reduction followed by an elementwise output block (softmax-like) is out-elemwise-fusable (4); a reduction over a shifted index (pooling) is out-elemwise-fusable (4)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def row_sum(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(8)))
        B = T.match_buffer(var_B, (n,))
        for i, k in T.grid(n, T.int64(8)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]

    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(4), T.int64(8)), "float32"), B: T.Buffer((T.int64(8), T.int64(3)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        for i, j, k in T.grid(T.int64(4), T.int64(3), T.int64(8)):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @T.prim_func(private=True)
    def normalize(A: T.Buffer((T.int64(4), T.int64(8)), "float32"), C: T.Buffer((T.int64(4), T.int64(8)), "float32")):
        S = T.alloc_buffer((T.int64(4),))
        for i, k in T.grid(T.int64(4), T.int64(8)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
        for i, j in T.grid(T.int64(4), T.int64(8)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] / S[vi]

    @T.prim_func(private=True)
    def pool(A: T.Buffer((T.int64(10),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        for i, k in T.grid(T.int64(8), T.int64(3)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi + vk]

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def row_sum(var_A: T.handle, var_B: T.handle):
        T.func_attr({"op_pattern": 3})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(8)))
        B = T.match_buffer(var_B, (n,))
        for i, k in T.grid(n, T.int64(8)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]

    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(4), T.int64(8)), "float32"), B: T.Buffer((T.int64(8), T.int64(3)), "float32"), C: T.Buffer((T.int64(4), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 4})
        for i, j, k in T.grid(T.int64(4), T.int64(3), T.int64(8)):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @T.prim_func(private=True)
    def normalize(A: T.Buffer((T.int64(4), T.int64(8)), "float32"), C: T.Buffer((T.int64(4), T.int64(8)), "float32")):
        T.func_attr({"op_pattern": 4})
        S = T.alloc_buffer((T.int64(4),))
        for i, k in T.grid(T.int64(4), T.int64(8)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
        for i, j in T.grid(T.int64(4), T.int64(8)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] / S[vi]

    @T.prim_func(private=True)
    def pool(A: T.Buffer((T.int64(10),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"op_pattern": 4})
        for i, k in T.grid(T.int64(8), T.int64(3)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi + vk]
