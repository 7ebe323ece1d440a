# R.call_tir_with_grad: a call_tir that names the gradient of its PrimFunc
# (te_grad_name, te_grad_kwargs); deduced as call_tir.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def scale(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (8, 16))
        B = T.match_buffer(b, (8, 16))
        for i, j in T.grid(8, 16):
            with T.block("scale"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)

    @R.function
    def main(x: R.Tensor((8, 16), "float32")):
        y = R.call_tir_with_grad(
            Module.scale,
            (x,),
            R.Tensor((8, 16), "float32"),
            te_grad_name="scale_grad",
            te_grad_kwargs={"k": 2.0},
        )
        z = R.call_tir_with_grad(Module.scale, (y,), out_sinfo=R.Tensor((8, 16), "float32"), te_grad_name="scale_grad")
        return z
