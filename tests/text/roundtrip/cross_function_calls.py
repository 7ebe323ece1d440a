# Functions call each other in any order; deduction uses the callee's signature.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n * m",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        y = cls.flatten(x)
        z = cls.square(y)
        return z

    @R.function
    def flatten(x: R.Tensor(("a", "b"), dtype="float32")) -> R.Tensor(("a * b",), dtype="float32"):
        a = T.int64()
        b = T.int64()
        y = R.reshape(x, R.shape([a * b]))
        return y

    @R.function(private=True)
    def square(x: R.Tensor(("k",), dtype="float32")) -> R.Tensor(("k",), dtype="float32"):
        k = T.int64()
        y = R.multiply(x, x)
        return y
