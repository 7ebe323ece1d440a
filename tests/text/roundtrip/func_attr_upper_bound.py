# Function attributes: an upper bound for a symbolic variable, strings, lists.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4096), dtype="float16")) -> R.Tensor(("n", 4096), dtype="float16"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 2048}, "relax.memory_plan_dynamic_func_output": True, "tag": "decode", "sizes": [1, 2, 4]})
        with R.dataflow():
            gv = R.multiply(x, x)
            R.output(gv)
        return gv
