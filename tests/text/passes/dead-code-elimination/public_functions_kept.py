# PASSES: dead-code-elimination
# CHECKS: externally visible functions (public graph functions, PrimFuncs with a global_symbol) are kept even when unused; private ones go (TVM test_multiple_unused_funcs, test_unused_prim_func)
@I.ir_module
class Before:
    @T.prim_func
    def unused_prim(x: T.Buffer((16, 16), "float32"), y: T.Buffer((16, 16), "float32"), z: T.Buffer((16, 16), "float32")):
        T.func_attr({"global_symbol": "tir_unused"})
        for i, j in T.grid(16, 16):
            with T.block("add"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = x[vi, vj] + y[vi, vj]

    @R.function(private=True)
    def unused_private(x: R.Tensor((16, 16), dtype="float32"), w: R.Tensor((16, 16), dtype="float32")):
        gv0 = R.add(x, w)
        return gv0

    @R.function
    def unused_public(x: R.Tensor(("n",), dtype="float32")):
        gv0 = R.multiply(x, x)
        return gv0

    @R.function
    def main(x: R.Tensor((16, 16), dtype="float32"), w: R.Tensor((16, 16), dtype="float32")) -> R.Tensor((16, 16), dtype="float32"):
        gv0 = R.add(x, w)
        return gv0

@I.ir_module
class Expected:
    @T.prim_func
    def unused_prim(x: T.Buffer((16, 16), "float32"), y: T.Buffer((16, 16), "float32"), z: T.Buffer((16, 16), "float32")):
        T.func_attr({"global_symbol": "tir_unused"})
        for i, j in T.grid(16, 16):
            with T.block("add"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = x[vi, vj] + y[vi, vj]

    @R.function
    def unused_public(x: R.Tensor(("n",), dtype="float32")):
        gv0 = R.multiply(x, x)
        return gv0

    @R.function
    def main(x: R.Tensor((16, 16), dtype="float32"), w: R.Tensor((16, 16), dtype="float32")) -> R.Tensor((16, 16), dtype="float32"):
        gv0 = R.add(x, w)
        return gv0
