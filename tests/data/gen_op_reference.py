#!/usr/bin/python3
"""Writes PyTorch reference values for the numerically delicate operators.

Run on a machine with python3-torch and python3-numpy (not needed in CI):

    /usr/bin/python3 tests/data/gen_op_reference.py

For every case it writes tests/data/op_reference/<case>.<name>.npy: the
inputs (float32, seeded) and `out` (computed by PyTorch in float64 and
stored as float32, or int64 for argmax). The C++ test
tests/unit/op/nn_numeric_test.cc runs the legalized PrimFuncs on the inputs
with the TIR interpreter and compares with `out`;
tests/unit/codegen/legalize_nn_codegen_test.cc does the same with the
PrimFuncs compiled through LLVM. New cases go at the end of main() so the
seeded inputs of the earlier ones stay as they are.
"""
import os

import numpy as np
import torch
import torch.nn.functional as F

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_reference")
rng = np.random.default_rng(20261124)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def t(a):
    return torch.from_numpy(np.asarray(a, dtype=np.float64))


def save(case, **arrays):
    for name, value in arrays.items():
        if isinstance(value, torch.Tensor):
            value = value.numpy()
        # ascontiguousarray makes a 0-d array 1-d: keep the shape.
        value = np.ascontiguousarray(value).reshape(np.shape(value))
        if value.dtype == np.float64:
            value = value.astype(np.float32)
        np.save(os.path.join(OUT_DIR, f"{case}.{name}.npy"), value)


def softmax_cases():
    for case, shape, axis in [("softmax_2d", (3, 5), -1), ("softmax_row", (1, 7), 1), ("softmax_3d_axis1", (2, 3, 4), 1)]:
        x = rand(*shape) * 4
        save(case, x=x, out=torch.softmax(t(x), axis))
        save("log_" + case, x=x, out=torch.log_softmax(t(x), axis))


def norm_cases():
    x, g, b = rand(2, 3, 8) + 3, rand(8), rand(8)
    save("layer_norm", x=x, gamma=g, beta=b, out=F.layer_norm(t(x), (8,), t(g), t(b), eps=1e-5))
    x, g, b = rand(2, 3, 4, 5), rand(4, 5), rand(4, 5)
    save("layer_norm_2axes", x=x, gamma=g, beta=b, out=F.layer_norm(t(x), (4, 5), t(g), t(b), eps=1e-5))
    x, w = rand(3, 8), rand(8)
    xt = t(x)
    save("rms_norm", x=x, weight=w, out=xt * torch.rsqrt((xt * xt).mean(-1, keepdim=True) + 1e-6) * t(w))
    x, g, b = rand(2, 6, 3, 3), rand(6), rand(6)
    save("group_norm", x=x, gamma=g, beta=b, out=F.group_norm(t(x), 3, t(g), t(b), eps=1e-5))
    x, g, b, m = rand(2, 3, 4, 5), rand(3), rand(3), rand(3)
    v = np.abs(rand(3)) + 0.5
    save("batch_norm", x=x, gamma=g, beta=b, mean=m, var=v,
         out=F.batch_norm(t(x), t(m), t(v), t(g), t(b), training=False, eps=1e-5))


def conv_cases():
    x, w = rand(2, 3, 7, 6), rand(4, 3, 3, 3)
    save("conv2d_stride2_pad1", x=x, w=w, out=F.conv2d(t(x), t(w), stride=2, padding=1))
    x, w = rand(1, 4, 5, 5), rand(6, 2, 3, 3)
    save("conv2d_groups2_dilation2", x=x, w=w, out=F.conv2d(t(x), t(w), padding=2, dilation=2, groups=2))
    x, w = rand(2, 3, 9), rand(4, 3, 3)
    save("conv1d_stride2_pad1", x=x, w=w, out=F.conv1d(t(x), t(w), stride=2, padding=1))
    x, w = rand(1, 4, 5, 5), rand(4, 3, 3, 3)
    save("conv2d_transpose", x=x, w=w,
         out=F.conv_transpose2d(t(x), t(w), stride=2, padding=1, output_padding=1))
    x, w = rand(1, 4, 3, 4), rand(4, 2, 3, 3)
    save("conv2d_transpose_groups2", x=x, w=w, out=F.conv_transpose2d(t(x), t(w), stride=1, padding=0, groups=2))


def pool_cases():
    x = rand(2, 3, 7, 7)
    save("max_pool2d", x=x, out=F.max_pool2d(t(x), 3, stride=2, padding=1))
    x = rand(1, 2, 6, 6)
    save("max_pool2d_ceil", x=x, out=F.max_pool2d(t(x), 3, stride=2, padding=0, ceil_mode=True))
    x = rand(1, 2, 7, 7)
    save("avg_pool2d_include_pad", x=x, out=F.avg_pool2d(t(x), 3, stride=2, padding=1, count_include_pad=True))
    save("avg_pool2d_exclude_pad", x=x, out=F.avg_pool2d(t(x), 3, stride=2, padding=1, count_include_pad=False))
    x = rand(1, 2, 7, 5)
    save("adaptive_avg_pool2d", x=x, out=F.adaptive_avg_pool2d(t(x), (3, 2)))


def resize_cases():
    x = rand(1, 2, 4, 5)
    save("resize_linear_half_pixel", x=x, out=F.interpolate(t(x), size=(7, 3), mode="bilinear", align_corners=False))
    save("resize_linear_align_corners", x=x, out=F.interpolate(t(x), size=(7, 3), mode="bilinear", align_corners=True))
    save("resize_nearest_asymmetric", x=x, out=F.interpolate(t(x), size=(8, 10), mode="nearest"))


def scan_search_cases():
    x = rand(3, 5)
    save("cumsum_axis1", x=x, out=torch.cumsum(t(x), 1))
    x = np.array([[1, 3, 3, 0], [2, 2, 1, 2], [5, 4, 5, 5]], dtype=np.float32)
    save("argmax_ties", x=x, out=torch.argmax(t(x), 1))
    save("argmin_ties", x=x, out=torch.argmin(t(x), 1))


def attention_cases():
    q, k, v = rand(2, 5, 3, 4), rand(2, 6, 3, 4), rand(2, 6, 3, 5)
    bias = rand(2, 3, 5, 6)
    qt, kt, vt = (t(a).transpose(1, 2) for a in (q, k, v))  # (b, h, s, d)

    def run(mask=None, scale=None):
        # softmax(q k^T * scale + mask) v, the definition of
        # scaled_dot_product_attention (written out: Debian's torch 1.13
        # predates F.scaled_dot_product_attention).
        scale = 1.0 / np.sqrt(qt.shape[-1]) if scale is None else scale
        scores = qt @ kt.transpose(-2, -1) * scale
        if mask is not None and mask.dtype == torch.bool:
            scores = scores.masked_fill(~mask, float("-inf"))
        elif mask is not None:
            scores = scores + mask
        return (torch.softmax(scores, -1) @ vt).transpose(1, 2)

    save("attention", q=q, k=k, v=v, out=run())
    save("attention_bias_scale", q=q, k=k, v=v, bias=bias, out=run(t(bias), 0.3))
    top_left = torch.ones(5, 6, dtype=torch.bool).tril(0)
    save("attention_causal_top_left", q=q, k=k, v=v, out=run(top_left))
    bottom_right = torch.ones(5, 6, dtype=torch.bool).tril(6 - 5)
    save("attention_causal_bottom_right", q=q, k=k, v=v, out=run(bottom_right))


def unary_math_cases():
    # Row prefixes of one (37, 3) input serve every row count the compiled
    # tests try; the extremes probe saturation of the approximations.
    x = rand(37, 3) * 2.5
    x[0] = [-9.0, 0.0, 9.0]
    x[1] = [-1e-4, 3e-5, 5.5]
    xt = t(x)
    save("gelu", x=x, out=F.gelu(xt))
    save("gelu_tanh", x=x, out=F.gelu(xt, approximate="tanh"))
    save("erf", x=x, out=torch.erf(xt))
    save("silu", x=x, out=F.silu(xt))
    save("sigmoid", x=x, out=torch.sigmoid(xt))


def stat_einsum_pad_cases():
    x = rand(5, 7) + 2
    save("variance_axis1", x=x, out=torch.var(t(x), 1, unbiased=False))
    save("std_all_keepdims", x=x, out=torch.std(t(x), (0, 1), unbiased=False, keepdim=True))
    save("cumsum_exclusive_axis0", x=x, out=torch.cumsum(t(x), 0) - t(x))
    a, c = rand(2, 3, 4), rand(1, 4, 5)
    save("einsum_batched_matmul", a=a, c=c, out=torch.einsum("...ij,...jk->...ik", t(a), t(c)))
    s = rand(4, 4)
    save("einsum_trace", s=s, out=torch.einsum("ii", t(s)))
    x = rand(3, 4)
    save("pad_constant", x=x, out=F.pad(t(x), (0, 2, 1, 0), value=-1.0))
    x = rand(1, 2, 5, 4)
    save("pad_reflect", x=x, out=F.pad(t(x), (2, 1, 1, 2), mode="reflect"))


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    torch.manual_seed(0)
    softmax_cases()
    norm_cases()
    conv_cases()
    pool_cases()
    resize_cases()
    scan_search_cases()
    attention_cases()
    unary_math_cases()
    stat_einsum_pad_cases()


if __name__ == "__main__":
    main()
