# ERROR: 8:22: the metadata has no entry relax.expr.Constant[1]
metadata = tvm.ir.load_json("""{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Map", "keys": ["relax.expr.Constant"], "data": [2]}, {"type_key": "Array", "data": []}], "b64ndarrays": []}""")

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")):
        y = R.add(x, metadata["relax.expr.Constant"][1])
        return y
