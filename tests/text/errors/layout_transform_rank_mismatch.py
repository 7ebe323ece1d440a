# ERROR: 7:13: layout_transform: the index map takes 1 indices but the tensor has rank 2
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")):
        n = T.int64()
        y = R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)), pad_value=None, axis_separators=[])
        return y
