# The memory and VM operators that lowering to the VM introduces, with
# DataTypeImm arguments (R.dtype), symbolic sizes and packed builtins.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(var_x: T.handle, var_y: T.handle, n: T.int64):
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("copy"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi]

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        a = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        s = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        _ = R.memory.kill_tensor(t)
        _1 = R.memory.kill_storage(s)
        vs = R.vm.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        vt = R.vm.alloc_tensor(vs, R.prim_value(0), R.shape([n]), R.dtype("float32"))
        _2 = R.vm.call_tir_dyn(cls.copy, (x, vt, R.shape([n])))
        _3 = R.vm.kill_object(vs)
        heap = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        nothing = R.null_value()
        return vt
