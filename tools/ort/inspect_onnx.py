#!/usr/bin/python3
"""Prints what an importer needs to know about an ONNX model: opset imports, inputs and outputs
with their element types and dims (dim_param names for symbolic dims), initializer count, and the
op types used with their counts (subgraphs of If/Loop/Scan included) and the attributes each op
type is used with.

Uses Debian's python3-onnx (apt-get install python3-onnx), which lives in Debian's interpreter:
run it as /usr/bin/python3 (a python3 earlier on PATH, e.g. a pyenv one, does not see it).

Usage: inspect_onnx.py model.onnx [--markdown]
"""
import collections
import sys

try:
    import onnx
except ImportError:
    sys.exit("inspect_onnx: needs Debian's python3-onnx (apt-get install python3-onnx), "
             "run with /usr/bin/python3")


def dim_text(dim):
    if dim.HasField("dim_value"):
        return str(dim.dim_value)
    if dim.HasField("dim_param"):
        return dim.dim_param
    return "?"


def value_info_text(vi):
    t = vi.type.tensor_type
    elem = onnx.TensorProto.DataType.Name(t.elem_type).lower()
    dims = ", ".join(dim_text(d) for d in t.shape.dim)
    return f"{vi.name}: {elem}[{dims}]"


def walk_nodes(graph):
    """Yields every node of the graph and of the subgraphs its nodes carry as attributes."""
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from walk_nodes(attr.g)
            for sub in attr.graphs:
                yield from walk_nodes(sub)


def attribute_value_text(attr):
    """A short text for an attribute's value; tensors and graphs are summarized by type and shape."""
    A = onnx.AttributeProto
    if attr.type == A.INT:
        return str(attr.i)
    if attr.type == A.FLOAT:
        return f"{attr.f:g}"
    if attr.type == A.STRING:
        return attr.s.decode("utf-8", "replace")
    if attr.type == A.INTS:
        return "[" + ",".join(str(v) for v in attr.ints) + "]"
    if attr.type == A.FLOATS:
        return "[" + ",".join(f"{v:g}" for v in attr.floats) + "]"
    if attr.type == A.TENSOR:
        t = attr.t
        elem = onnx.TensorProto.DataType.Name(t.data_type).lower()
        return f"{elem}[{','.join(str(d) for d in t.dims)}]" if t.dims else f"{elem} scalar"
    return A.AttributeType.Name(attr.type).lower()


def attribute_summary(node):
    """name=value texts of the node's attributes (Constant: the kind of tensor, not its data)."""
    out = []
    for a in node.attribute:
        value = attribute_value_text(a)
        if node.op_type == "Constant" and "[" in value:
            value = value.split("[")[0] + "[rank " + str(len(a.t.dims)) + "]"
        if node.op_type == "Cast" and a.name == "to":
            value = onnx.TensorProto.DataType.Name(a.i).lower()
        out.append(f"{a.name}={value}")
    return sorted(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    if len(args) != 1:
        sys.exit(__doc__)
    model = onnx.load(args[0])
    graph = model.graph
    init_names = {i.name for i in graph.initializer}
    inputs = [vi for vi in graph.input if vi.name not in init_names]
    counts = collections.Counter()
    attrs = collections.defaultdict(set)
    domains = {}
    for node in walk_nodes(graph):
        counts[node.op_type] += 1
        attrs[node.op_type].update(attribute_summary(node))
        domains[node.op_type] = node.domain or "ai.onnx"
    opsets = ", ".join(f"{o.domain or 'ai.onnx'} {o.version}" for o in model.opset_import)
    params = sum(int(_prod(i.dims)) for i in graph.initializer)

    if markdown:
        print(f"- opset: {opsets}; IR version {model.ir_version}; producer "
              f"{model.producer_name or '(none)'} {model.producer_version}".rstrip())
        for vi in inputs:
            print(f"- input `{value_info_text(vi)}`")
        for vi in graph.output:
            print(f"- output `{value_info_text(vi)}`")
        print(f"- {len(graph.initializer)} initializers ({params} values), "
              f"{sum(counts.values())} nodes, {len(counts)} op types")
        print()
        print("| op type | count | attribute values seen |")
        print("| --- | ---: | --- |")
        for op, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            domain = "" if domains[op] == "ai.onnx" else f" ({domains[op]})"
            print(f"| {op}{domain} | {n} | {_short(attrs[op], ', ')} |")
        return

    print(f"model: {args[0]}")
    print(f"opset: {opsets}  ir_version: {model.ir_version}  "
          f"producer: {model.producer_name or '(none)'} {model.producer_version}".rstrip())
    for vi in inputs:
        print(f"input  {value_info_text(vi)}")
    for vi in graph.output:
        print(f"output {value_info_text(vi)}")
    print(f"initializers: {len(graph.initializer)} ({params} values)  nodes: {sum(counts.values())}")
    print("op types:")
    for op, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {op:24s} {n:5d}  attrs: {_short(attrs[op], '  ')}")


def _short(values, sep, limit=40):
    values = sorted(values)
    if not values:
        return "-"
    more = f"{sep}... ({len(values) - limit} more)" if len(values) > limit else ""
    return sep.join(values[:limit]) + more


def _prod(dims):
    p = 1
    for d in dims:
        p *= d
    return p


if __name__ == "__main__":
    main()
