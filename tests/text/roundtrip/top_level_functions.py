# Functions outside a class are gathered into one module.
from tvm.script import tir as T
from tvm.script import relax as R


@T.prim_func
def fill(A: T.Buffer((8,), "int32")):
    for i in range(8):
        A[i] = i


@R.function
def main(x: R.Tensor((8,), dtype="int32")) -> R.Tensor((8,), dtype="int32"):
    y = R.add(x, x)
    return y
