# R.builtin.alloc_tensor written as TVM's Python wrapper allows: keyword
# arguments with plain values (a dtype string, an int device index) and
# storage_scope left out (the wrapper's default, "global").
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Shape(["n", 4]):
        n = T.int64()
        alloc = R.builtin.alloc_tensor(R.shape([n, 4]), runtime_device_index=0, dtype="float32")
        scratch = R.builtin.alloc_tensor(R.shape([8]), "int32", 0, "global")
        shape = R.shape_of(alloc)
        return shape
