#!/usr/bin/env python3
"""Inputs and a reference for the MLP demo (standard library only).

  mlp_demo_data.py write DIR N   writes x (N, 784), w1, b1, w2 as .npy into DIR
  mlp_demo_data.py check DIR N   reads DIR/y.npy, compares with relu(x @ w1 + b1) @ w2
"""
import ast
import struct
import sys


def inputs(n):
    x = [[((i * 7 + k) % 13 - 6) / 10.0 for k in range(784)] for i in range(n)]
    w1 = [[((k * 3 + j) % 11 - 5) / 100.0 for j in range(128)] for k in range(784)]
    b1 = [((j % 7) - 3) / 10.0 for j in range(128)]
    w2 = [[((k + 5 * j) % 9 - 4) / 10.0 for j in range(10)] for k in range(128)]
    return {"x": x, "w1": w1, "b1": b1, "w2": w2}


def shape_of(value):
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0]
    return tuple(shape)


def flatten(value):
    if not isinstance(value, list):
        return [value]
    return [item for row in value for item in flatten(row)]


def write_npy(path, value):
    shape = shape_of(value)
    dims = "".join(f"{d}, " for d in shape) if len(shape) == 1 else ", ".join(str(d) for d in shape)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        data = flatten(value)
        f.write(struct.pack("<%df" % len(data), *data))


def read_npy(path):
    with open(path, "rb") as f:
        content = f.read()
    header_len = struct.unpack("<H", content[8:10])[0]
    header = ast.literal_eval(content[10:10 + header_len].decode("latin1"))
    count = 1
    for d in header["shape"]:
        count *= d
    return header["shape"], list(struct.unpack("<%df" % count, content[10 + header_len:10 + header_len + 4 * count]))


def reference(n):
    v = inputs(n)
    hidden = [[max(sum(v["x"][i][k] * v["w1"][k][j] for k in range(784)) + v["b1"][j], 0.0) for j in range(128)]
              for i in range(n)]
    return [[sum(hidden[i][k] * v["w2"][k][j] for k in range(128)) for j in range(10)] for i in range(n)]


def main():
    command, directory, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if command == "write":
        for name, value in inputs(n).items():
            write_npy(f"{directory}/{name}.npy", value)
        return 0
    shape, y = read_npy(f"{directory}/y.npy")
    expected = flatten(reference(n))
    error = max(abs(a - b) for a, b in zip(y, expected))
    print(f"  y{tuple(shape)} row 0: " + " ".join(f"{value:.3f}" for value in y[:10]))
    print(f"  max |y - reference| = {error:.2e}")
    return 0 if tuple(shape) == (n, 10) and error < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
