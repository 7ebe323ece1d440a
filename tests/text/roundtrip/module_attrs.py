# Module-level attributes next to a graph function.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    I.module_attrs({"system_lib_prefix": "model_", "opt_level": 3})

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        gv = R.sqrt(x)
        return gv
