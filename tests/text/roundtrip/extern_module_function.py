# Module global infos (kept opaque) and extern functions as values.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    I.module_global_infos({"targets": ["llvm", "cuda"]})

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        f = R.ExternFunc("other_symbol")
        y = R.call_pure_packed("vm.builtin.copy", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y
