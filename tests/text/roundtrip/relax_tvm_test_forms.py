# Graph-level spellings from TVM's tests: R.Any (R.Object's newer name),
# `x.struct_info` as struct info, ty_args=, R.call_tir_inplace with
# positional inplace indices, `x.astype(dtype)`, conditions computed on
# symbolic variables (`N % 16 == 0`), a parameter using a symbolic variable
# that a later parameter defines, an empty tuple binding, and relax.const /
# relax.op.add (TVM's Python API) for R.const / R.add.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def add_inplace(A: T.Buffer((2, 3), "int32"), B: T.Buffer((2, 3), "int32")):
        for i, j in T.grid(2, 3):
            with T.block("add"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = A[vi, vj] + B[vi, vj]

    @R.function
    def inplace(x: R.Tensor((2, 3), "int32"), y: R.Tensor((2, 3), "int32")) -> R.Tensor((2, 3), "int32"):
        res = R.call_tir_inplace(Module.add_inplace, (x, y), [0], R.Tensor((2, 3), "int32"))
        return res

    @R.function
    def dispatch(x: R.Tensor(["N"], "float32"), anything: R.Any) -> R.Tensor(["N"], "float32"):
        N = T.int64()
        if N % 16 == 0:
            out = R.call_pure_packed("fast_impl", x, sinfo_args=[x.struct_info])
        else:
            out = R.call_pure_packed("slow_impl", x, ty_args=(R.Tensor(["N"], "float32"),))
        return out

    @R.function
    def usage_first(x: R.Tensor(("m + 1",), "float32"), y: R.Tensor(("m", 1), "float32")):
        z = R.add(x, y)
        h = z.astype("float16")
        e: R.Tuple = R.tuple()
        return (h, e)

    @R.function(private=True)
    def python_api_spelling(x: R.Tensor((), "int32")):
        # TVM's Python API inside TVMScript: relax.const, relax.op.add.
        one = relax.const(1)
        y = relax.op.add(x, one)
        return y
