# PASSES: canonicalize-bindings
# CHECKS: when folding a trivial binding changes a value, its variable takes the more precise deduced struct info, also through a renamed output (TVM test_canonicalization_causes_ty_update)
@I.ir_module
class Before:
    @R.function
    def transform_params(A: R.Tensor(("vocab_size", 4096), dtype="float16"), B: R.Tensor((6144, 4096), dtype="float16")) -> R.Tuple(R.Tensor(dtype="float16", ndim=2), R.Tensor((6144, 4096), dtype="float16")):
        with R.dataflow():
            C = B
            D: R.Tuple(R.Tensor(dtype="float16", ndim=2), R.Tensor((6144, 4096), dtype="float16")) = (A, C)
            E = D
            R.output(E)
        return E

@I.ir_module
class Expected:
    @R.function
    def transform_params(A: R.Tensor(("vocab_size", 4096), dtype="float16"), B: R.Tensor((6144, 4096), dtype="float16")) -> R.Tuple(R.Tensor(dtype="float16", ndim=2), R.Tensor((6144, 4096), dtype="float16")):
        vocab_size = T.int64()
        with R.dataflow():
            E: R.Tuple(R.Tensor((vocab_size, 4096), dtype="float16"), R.Tensor((6144, 4096), dtype="float16")) = (A, B)
            R.output(E)
        return E
