# PASSES: legalize-ops
# CHECKS: calls the TE computations cannot lower stay as they are: an input of unknown shape (only a rank), attention with window_size and resize2d to a size of unknown values
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), q: R.Tensor((1, 4, 2, 8), dtype="float32"), y: R.Tensor((1, 2, 4, 4), dtype="float32"), s: R.Shape(ndim=2)):
        lv = R.nn.softmax(x, axis=-1)
        lv1 = R.nn.attention(q, q, q, scale=None, causal_mask=None, window_size=2)
        lv2 = R.image.resize2d(y, s, method="cubic")
        gv = (lv, lv1, lv2)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), q: R.Tensor((1, 4, 2, 8), dtype="float32"), y: R.Tensor((1, 2, 4, 4), dtype="float32"), s: R.Shape(ndim=2)):
        lv = R.nn.softmax(x, axis=-1)
        lv1 = R.nn.attention(q, q, q, scale=None, causal_mask=None, window_size=2)
        lv2 = R.image.resize2d(y, s, method="cubic")
        gv = (lv, lv1, lv2)
        return gv
