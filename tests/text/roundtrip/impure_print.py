# An impure function: printing and a packed call outside dataflow blocks.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="x = {}")
        y = R.call_packed("my_lib.inplace_relu", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        _ = R.print(y, format="")
        z = R.add(y, x)
        return z
