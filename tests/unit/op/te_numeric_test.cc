// Numerical tests of the TE computations behind the legalizations: each
// PrimFunc (te::CreatePrimFunc) runs in the TIR interpreter, with symbolic
// dims bound at several sizes (1, odd, larger), against PyTorch reference
// values (tests/data/op_reference, written by tests/data/gen_op_reference.py)
// or hand-written naive loops.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../common/op_reference.h"
#include "rlx/op/te_compute.h"
#include "rlx/tir/interpreter.h"
#include "rlx/tir/te.h"

namespace rlx::op::compute {
namespace {

using ir::PrimExpr;
using tir::HostTensor;

const DataType kF32 = DataType::Float32();

// A placeholder whose every dim is a fresh symbolic variable (bound by the
// interpreter from the actual argument), so one PrimFunc serves all sizes.
te::Tensor SymbolicPlaceholder(int ndim, const std::string& name, DataType dtype = kF32) {
  std::vector<PrimExpr> shape;
  for (int d = 0; d < ndim; ++d) shape.push_back(ir::MakeVar(name + "_d" + std::to_string(d)));
  return te::Placeholder(shape, dtype, name);
}

te::Tensor StaticPlaceholder(const std::vector<int64_t>& dims, const std::string& name, DataType dtype = kF32) {
  std::vector<PrimExpr> shape;
  for (int64_t d : dims) shape.push_back(ir::MakeInt(d));
  return te::Placeholder(shape, dtype, name);
}

// Runs `outputs` computed from `inputs` on `values`; returns the outputs
// (shaped like `expected_shapes`).
std::vector<HostTensor> RunCompute(const std::vector<te::Tensor>& inputs, const std::vector<te::Tensor>& outputs,
                            std::vector<HostTensor> values, const std::vector<std::vector<int64_t>>& out_shapes) {
  std::vector<te::Tensor> args = inputs;
  args.insert(args.end(), outputs.begin(), outputs.end());
  tir::PrimFunc func = te::CreatePrimFunc(args);
  std::vector<HostTensor> results;
  for (size_t i = 0; i < outputs.size(); ++i) results.emplace_back(outputs[i].dtype(), out_shapes[i]);
  std::vector<tir::ArgValue> call_args;
  for (HostTensor& value : values) call_args.push_back(&value);
  for (HostTensor& result : results) call_args.push_back(&result);
  tir::RunPrimFunc(func, call_args);
  return results;
}

void ExpectClose(const HostTensor& actual, const HostTensor& expected, double tolerance = 1e-5) {
  ASSERT_EQ(actual.shape, expected.shape);
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    double e = expected.GetFloat(i);
    EXPECT_NEAR(actual.GetFloat(i), e, tolerance * (1 + std::fabs(e))) << "element " << i;
  }
}

// Checks a single-input, single-output computation against a reference case.
void CheckUnaryCase(const std::string& case_name, const std::function<te::Tensor(const te::Tensor&)>& compute,
                    double tolerance = 1e-5) {
  SCOPED_TRACE(case_name);
  HostTensor x = op_test::LoadOpReference(case_name, "x");
  HostTensor expected = op_test::LoadOpReference(case_name, "out");
  te::Tensor input = SymbolicPlaceholder(static_cast<int>(x.shape.size()), "x");
  std::vector<HostTensor> out = RunCompute({input}, {compute(input)}, {x}, {expected.shape});
  ExpectClose(out[0], expected, tolerance);
}

HostTensor Random(const std::vector<int64_t>& shape, unsigned seed) {
  HostTensor t(kF32, shape);
  uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    t.SetFloat(i, static_cast<double>((state >> 33) % 2000) / 250.0 - 4.0);
  }
  return t;
}

// ---------------------------------------------------------------- softmax

TEST(TeNumericTest, SoftmaxAgainstPyTorch) {
  CheckUnaryCase("softmax_2d", [](const te::Tensor& x) { return Softmax(x, 1); });
  CheckUnaryCase("softmax_row", [](const te::Tensor& x) { return Softmax(x, 1); });
  CheckUnaryCase("softmax_3d_axis1", [](const te::Tensor& x) { return Softmax(x, 1); });
  CheckUnaryCase("log_softmax_2d", [](const te::Tensor& x) { return LogSoftmax(x, 1); });
  CheckUnaryCase("log_softmax_3d_axis1", [](const te::Tensor& x) { return LogSoftmax(x, 1); });
}

TEST(TeNumericTest, SoftmaxSymbolicSizesAgainstNaive) {
  te::Tensor x = SymbolicPlaceholder(2, "x");
  tir::PrimFunc func = te::CreatePrimFunc({x, Softmax(x, 1)});
  tir::Interpreter interpreter(func);
  for (int64_t rows : {1, 3, 8}) {
    for (int64_t cols : {1, 5, 33}) {
      HostTensor input = Random({rows, cols}, static_cast<unsigned>(rows * 100 + cols));
      HostTensor out(kF32, {rows, cols});
      interpreter.Run({&input, &out});
      for (int64_t r = 0; r < rows; ++r) {
        double max_value = -1e30, sum = 0;
        for (int64_t c = 0; c < cols; ++c) max_value = std::max(max_value, input.At({r, c}));
        for (int64_t c = 0; c < cols; ++c) sum += std::exp(input.At({r, c}) - max_value);
        for (int64_t c = 0; c < cols; ++c) {
          EXPECT_NEAR(out.At({r, c}), std::exp(input.At({r, c}) - max_value) / sum, 1e-6) << rows << "x" << cols;
        }
      }
    }
  }
}

TEST(TeNumericTest, SoftmaxFloat16AccumulatesInFloat32) {
  te::Tensor x = SymbolicPlaceholder(2, "x", DataType::Float(16));
  te::Tensor out = Softmax(x, 1);
  EXPECT_EQ(out.dtype(), DataType::Float(16));
  HostTensor input = HostTensor::FromDoubles(DataType::Float(16), {1, 3}, {1.0, 2.0, 3.0});
  std::vector<HostTensor> result = RunCompute({x}, {out}, {input}, {{1, 3}});
  double sum = std::exp(-2.0) + std::exp(-1.0) + 1.0;
  EXPECT_NEAR(result[0].At({0, 2}), 1.0 / sum, 1e-3);
}

// ---------------------------------------------------------------- norms

TEST(TeNumericTest, LayerNormFloat16AgainstFloat32) {
  // A float16 layer_norm (accumulated in float32) agrees with the float32
  // one to float16 precision, including for a large mean.
  HostTensor x32 = op_test::LoadOpReference("layer_norm", "x"), g32 = op_test::LoadOpReference("layer_norm", "gamma"),
             b32 = op_test::LoadOpReference("layer_norm", "beta"), expected = op_test::LoadOpReference("layer_norm", "out");
  const DataType f16 = DataType::Float(16);
  auto to_f16 = [&](const HostTensor& t) { return HostTensor::FromDoubles(f16, t.shape, t.ToDoubles()); };
  te::Tensor tx = SymbolicPlaceholder(3, "x", f16), tg = SymbolicPlaceholder(1, "g", f16),
             tb = SymbolicPlaceholder(1, "b", f16);
  te::Tensor out = LayerNorm(tx, tg, tb, {2}, 1e-5);
  EXPECT_EQ(out.dtype(), f16);
  HostTensor result = RunCompute({tx, tg, tb}, {out}, {to_f16(x32), to_f16(g32), to_f16(b32)}, {expected.shape})[0];
  ExpectClose(result, expected, 1e-2);
}

TEST(TeNumericTest, NormsAgainstPyTorch) {
  {
    HostTensor x = op_test::LoadOpReference("layer_norm", "x"), g = op_test::LoadOpReference("layer_norm", "gamma"),
               b = op_test::LoadOpReference("layer_norm", "beta"), expected = op_test::LoadOpReference("layer_norm", "out");
    te::Tensor tx = SymbolicPlaceholder(3, "x"), tg = SymbolicPlaceholder(1, "g"), tb = SymbolicPlaceholder(1, "b");
    ExpectClose(RunCompute({tx, tg, tb}, {LayerNorm(tx, tg, tb, {2}, 1e-5)}, {x, g, b}, {expected.shape})[0], expected, 1e-4);
  }
  {
    HostTensor x = op_test::LoadOpReference("layer_norm_2axes", "x"), g = op_test::LoadOpReference("layer_norm_2axes", "gamma"),
               b = op_test::LoadOpReference("layer_norm_2axes", "beta"), expected = op_test::LoadOpReference("layer_norm_2axes", "out");
    te::Tensor tx = SymbolicPlaceholder(4, "x"), tg = SymbolicPlaceholder(2, "g"), tb = SymbolicPlaceholder(2, "b");
    ExpectClose(RunCompute({tx, tg, tb}, {LayerNorm(tx, tg, tb, {2, 3}, 1e-5)}, {x, g, b}, {expected.shape})[0], expected,
                1e-4);
  }
  {
    HostTensor x = op_test::LoadOpReference("rms_norm", "x"), w = op_test::LoadOpReference("rms_norm", "weight"),
               expected = op_test::LoadOpReference("rms_norm", "out");
    te::Tensor tx = SymbolicPlaceholder(2, "x"), tw = SymbolicPlaceholder(1, "w");
    ExpectClose(RunCompute({tx, tw}, {RmsNorm(tx, tw, {1}, 1e-6)}, {x, w}, {expected.shape})[0], expected, 1e-4);
  }
  {
    HostTensor x = op_test::LoadOpReference("group_norm", "x"), g = op_test::LoadOpReference("group_norm", "gamma"),
               b = op_test::LoadOpReference("group_norm", "beta"), expected = op_test::LoadOpReference("group_norm", "out");
    te::Tensor tx = SymbolicPlaceholder(4, "x"), tg = SymbolicPlaceholder(1, "g"), tb = SymbolicPlaceholder(1, "b");
    ExpectClose(RunCompute({tx, tg, tb}, {GroupNorm(tx, tg, tb, 3, 1, {2, 3}, 1e-5)}, {x, g, b}, {expected.shape})[0],
                expected, 1e-4);
  }
  {
    const char* c = "batch_norm";
    HostTensor x = op_test::LoadOpReference(c, "x"), g = op_test::LoadOpReference(c, "gamma"), b = op_test::LoadOpReference(c, "beta"),
               m = op_test::LoadOpReference(c, "mean"), v = op_test::LoadOpReference(c, "var"), expected = op_test::LoadOpReference(c, "out");
    te::Tensor tx = SymbolicPlaceholder(4, "x"), tg = SymbolicPlaceholder(1, "g"), tb = SymbolicPlaceholder(1, "b"),
               tm = SymbolicPlaceholder(1, "m"), tv = SymbolicPlaceholder(1, "v");
    std::vector<te::Tensor> outs = BatchNorm(tx, tg, tb, tm, tv, 1, 1e-5);
    std::vector<HostTensor> results = RunCompute({tx, tg, tb, tm, tv}, outs, {x, g, b, m, v}, {expected.shape, {3}, {3}});
    ExpectClose(results[0], expected, 1e-4);
    ExpectClose(results[1], m, 0);
    ExpectClose(results[2], v, 0);
  }
}

// ---------------------------------------------------------------- conv, pool

ConvParams Conv2DParams(std::vector<int64_t> strides, std::vector<int64_t> padding, std::vector<int64_t> dilation,
                        int64_t groups) {
  ConvParams p;
  p.strides = strides;
  p.padding = padding;
  p.dilation = dilation;
  p.output_padding = std::vector<int64_t>(strides.size(), 0);
  p.groups = groups;
  for (size_t i = 0; i < strides.size() + 2; ++i) {
    p.data_pos.push_back(static_cast<int>(i));
    p.kernel_pos.push_back(static_cast<int>(i));
    p.out_pos.push_back(static_cast<int>(i));
  }
  p.out_dtype = kF32;
  return p;
}

void CheckConvCase(const std::string& case_name, const ConvParams& p, bool transpose) {
  SCOPED_TRACE(case_name);
  HostTensor x = op_test::LoadOpReference(case_name, "x"), w = op_test::LoadOpReference(case_name, "w"),
             expected = op_test::LoadOpReference(case_name, "out");
  int ndim = static_cast<int>(x.shape.size());
  // Symbolic data dims (batch and spatial), a static weight.
  te::Tensor tx = SymbolicPlaceholder(ndim, "x");
  te::Tensor tw = StaticPlaceholder(w.shape, "w");
  te::Tensor out = transpose ? ConvTranspose(tx, tw, p) : Conv(tx, tw, p);
  ExpectClose(RunCompute({tx, tw}, {out}, {x, w}, {expected.shape})[0], expected, 1e-4);
}

TEST(TeNumericTest, ConvolutionsAgainstPyTorch) {
  CheckConvCase("conv2d_stride2_pad1", Conv2DParams({2, 2}, {1, 1, 1, 1}, {1, 1}, 1), false);
  CheckConvCase("conv2d_groups2_dilation2", Conv2DParams({1, 1}, {2, 2, 2, 2}, {2, 2}, 2), false);
  CheckConvCase("conv1d_stride2_pad1", Conv2DParams({2}, {1, 1}, {1}, 1), false);
  ConvParams up = Conv2DParams({2, 2}, {1, 1, 1, 1}, {1, 1}, 1);
  up.output_padding = {1, 1};
  up.kernel_pos = {1, 0, 2, 3};  // IOHW
  CheckConvCase("conv2d_transpose", up, true);
  ConvParams grouped = Conv2DParams({1, 1}, {0, 0, 0, 0}, {1, 1}, 2);
  grouped.kernel_pos = {1, 0, 2, 3};
  CheckConvCase("conv2d_transpose_groups2", grouped, true);
}

TEST(TeNumericTest, Conv2dNHWCMatchesNCHW) {
  HostTensor x = op_test::LoadOpReference("conv2d_stride2_pad1", "x"), w = op_test::LoadOpReference("conv2d_stride2_pad1", "w"),
             expected = op_test::LoadOpReference("conv2d_stride2_pad1", "out");
  // Transpose data NCHW -> NHWC, weight OIHW -> HWIO.
  auto transposed = [](const HostTensor& t, const std::vector<int>& perm) {
    std::vector<int64_t> shape;
    for (int p : perm) shape.push_back(t.shape[p]);
    HostTensor result(t.dtype, shape);
    std::vector<int64_t> index(4), source(4);
    for (int64_t flat = 0; flat < result.num_elements(); ++flat) {
      int64_t rest = flat;
      for (int d = 3; d >= 0; --d) {
        index[d] = rest % shape[d];
        rest /= shape[d];
      }
      for (int d = 0; d < 4; ++d) source[perm[d]] = index[d];
      result.SetFloat(flat, t.At(source));
    }
    return result;
  };
  ConvParams p = Conv2DParams({2, 2}, {1, 1, 1, 1}, {1, 1}, 1);
  p.data_pos = {0, 3, 1, 2};    // N, C, H, W positions in NHWC
  p.kernel_pos = {3, 2, 0, 1};  // O, I, H, W positions in HWIO
  p.out_pos = {0, 3, 1, 2};
  te::Tensor tx = SymbolicPlaceholder(4, "x"), tw = SymbolicPlaceholder(4, "w");
  HostTensor expected_nhwc = transposed(expected, {0, 2, 3, 1});
  ExpectClose(RunCompute({tx, tw}, {Conv(tx, tw, p)}, {transposed(x, {0, 2, 3, 1}), transposed(w, {2, 3, 1, 0})},
                  {expected_nhwc.shape})[0],
              expected_nhwc, 1e-4);
}

// One symbolic conv2d / max_pool2d PrimFunc at several batch and spatial
// sizes (1, odd, larger) against naive loops.
TEST(TeNumericTest, Conv2dAndMaxPoolSymbolicSizesAgainstNaive) {
  te::Tensor x = SymbolicPlaceholder(4, "x");
  te::Tensor w = StaticPlaceholder({2, 3, 3, 3}, "w");
  ConvParams p = Conv2DParams({1, 2}, {1, 1, 1, 0}, {1, 1}, 1);
  tir::Interpreter conv(te::CreatePrimFunc({x, w, Conv(x, w, p)}));
  PoolParams pool;
  pool.pool_size = {2, 2};
  pool.strides = {2, 1};
  pool.dilation = {1, 1};
  pool.padding = {1, 0, 0, 0};
  pool.pos = pool.out_pos = {0, 1, 2, 3};
  tir::Interpreter max_pool(te::CreatePrimFunc({x, MaxPool2D(x, pool)}));
  HostTensor weight = Random({2, 3, 3, 3}, 9);
  for (int64_t n : {1, 2}) {
    for (auto [h, wd] : std::vector<std::pair<int64_t, int64_t>>{{1, 2}, {3, 5}, {6, 4}}) {
      HostTensor input = Random({n, 3, h, wd}, static_cast<unsigned>(n * 31 + h * 7 + wd));
      int64_t oh = h + 2 - 2, ow = (wd + 1 - 3) / 2 + 1;
      HostTensor out(kF32, {n, 2, oh, ow});
      conv.Run({&input, &weight, &out});
      for (int64_t b = 0; b < n; ++b) {
        for (int64_t o = 0; o < 2; ++o) {
          for (int64_t y = 0; y < oh; ++y) {
            for (int64_t xx = 0; xx < ow; ++xx) {
              double sum = 0;
              for (int64_t c = 0; c < 3; ++c) {
                for (int64_t ky = 0; ky < 3; ++ky) {
                  for (int64_t kx = 0; kx < 3; ++kx) {
                    int64_t iy = y - 1 + ky, ix = xx * 2 - 1 + kx;
                    if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                    sum += input.At({b, c, iy, ix}) * weight.At({o, c, ky, kx});
                  }
                }
              }
              EXPECT_NEAR(out.At({b, o, y, xx}), sum, 1e-4) << n << "x" << h << "x" << wd;
            }
          }
        }
      }
      int64_t ph = (h + 1 - 2) / 2 + 1, pw = wd - 1;
      if (ph < 1 || pw < 1) continue;
      HostTensor pooled(kF32, {n, 3, ph, pw});
      max_pool.Run({&input, &pooled});
      for (int64_t b = 0; b < n; ++b) {
        for (int64_t c = 0; c < 3; ++c) {
          for (int64_t y = 0; y < ph; ++y) {
            for (int64_t xx = 0; xx < pw; ++xx) {
              double best = -1e30;
              for (int64_t ky = 0; ky < 2; ++ky) {
                for (int64_t kx = 0; kx < 2; ++kx) {
                  int64_t iy = y * 2 - 1 + ky, ix = xx + kx;
                  if (iy >= 0 && iy < h && ix < wd) best = std::max(best, input.At({b, c, iy, ix}));
                }
              }
              EXPECT_EQ(pooled.At({b, c, y, xx}), best) << n << "x" << h << "x" << wd;
            }
          }
        }
      }
    }
  }
}

PoolParams Pool(std::vector<int64_t> size, std::vector<int64_t> strides, std::vector<int64_t> padding, bool ceil_mode,
                bool include_pad) {
  PoolParams p;
  p.pool_size = size;
  p.strides = strides;
  p.dilation = {1, 1};
  p.padding = padding;
  p.ceil_mode = ceil_mode;
  p.count_include_pad = include_pad;
  p.pos = {0, 1, 2, 3};
  p.out_pos = {0, 1, 2, 3};
  return p;
}

TEST(TeNumericTest, PoolingAgainstPyTorch) {
  CheckUnaryCase("max_pool2d", [](const te::Tensor& x) { return MaxPool2D(x, Pool({3, 3}, {2, 2}, {1, 1, 1, 1}, false, false)); });
  CheckUnaryCase("max_pool2d_ceil", [](const te::Tensor& x) { return MaxPool2D(x, Pool({3, 3}, {2, 2}, {0, 0, 0, 0}, true, false)); });
  CheckUnaryCase("avg_pool2d_include_pad",
                 [](const te::Tensor& x) { return AvgPool2D(x, Pool({3, 3}, {2, 2}, {1, 1, 1, 1}, false, true)); });
  CheckUnaryCase("avg_pool2d_exclude_pad",
                 [](const te::Tensor& x) { return AvgPool2D(x, Pool({3, 3}, {2, 2}, {1, 1, 1, 1}, false, false)); });
  CheckUnaryCase("adaptive_avg_pool2d", [](const te::Tensor& x) {
    return AdaptiveAvgPool2D(x, std::vector<int64_t>{3, 2}, {0, 1, 2, 3}, {0, 1, 2, 3});
  });
}

// ---------------------------------------------------------------- resize

TEST(TeNumericTest, ResizeAgainstPyTorch) {
  auto resize = [](const std::string& method, const std::string& mode, const std::string& rounding,
                   std::vector<int64_t> size) {
    return [=](const te::Tensor& x) {
      ResizeParams p{{0, 1, 2, 3}, method, mode, rounding, kF32};
      return Resize2D(x, {ir::MakeInt(size[0]), ir::MakeInt(size[1])}, p);
    };
  };
  CheckUnaryCase("resize_linear_half_pixel", resize("linear", "half_pixel", "", {7, 3}));
  CheckUnaryCase("resize_linear_align_corners", resize("linear", "align_corners", "", {7, 3}));
  CheckUnaryCase("resize_nearest_asymmetric", resize("nearest_neighbor", "asymmetric", "floor", {8, 10}));
}

// ---------------------------------------------------------------- attention

TEST(TeNumericTest, AttentionAgainstPyTorch) {
  struct Case {
    std::string name;
    bool bias;
    std::optional<double> scale;
    std::optional<std::string> causal;
  };
  for (const Case& c : {Case{"attention", false, std::nullopt, std::nullopt},
                        Case{"attention_bias_scale", true, 0.3, std::nullopt},
                        Case{"attention_causal_top_left", false, std::nullopt, "TopLeft"},
                        Case{"attention_causal_bottom_right", false, std::nullopt, "BottomRight"}}) {
    SCOPED_TRACE(c.name);
    HostTensor q = op_test::LoadOpReference(c.name, "q"), k = op_test::LoadOpReference(c.name, "k"), v = op_test::LoadOpReference(c.name, "v"),
               expected = op_test::LoadOpReference(c.name, "out");
    te::Tensor tq = SymbolicPlaceholder(4, "q"), tk = SymbolicPlaceholder(4, "k"), tv = SymbolicPlaceholder(4, "v");
    std::vector<te::Tensor> inputs = {tq, tk, tv};
    std::vector<HostTensor> values = {q, k, v};
    te::Tensor tbias;
    if (c.bias) {
      tbias = SymbolicPlaceholder(4, "bias");
      inputs.push_back(tbias);
      values.push_back(op_test::LoadOpReference(c.name, "bias"));
    }
    te::Tensor out = Attention(tq, tk, tv, tbias, c.scale, c.causal);
    ExpectClose(RunCompute(inputs, {out}, values, {expected.shape})[0], expected, 1e-4);
  }
}

// ---------------------------------------------------------------- statistical

TEST(TeNumericTest, CumsumAndArgReduceAgainstPyTorch) {
  CheckUnaryCase("cumsum_axis1", [](const te::Tensor& x) { return Cumsum(x, 1, kF32, false); });
  CheckUnaryCase("argmax_ties", [](const te::Tensor& x) { return ArgReduce(x, 1, false, true); }, 0);
  CheckUnaryCase("argmin_ties", [](const te::Tensor& x) { return ArgReduce(x, 1, false, false); }, 0);
}

TEST(TeNumericTest, CumsumSymbolicAgainstNaive) {
  te::Tensor x = SymbolicPlaceholder(2, "x");
  tir::Interpreter inclusive(te::CreatePrimFunc({x, Cumsum(x, 0, kF32, false)}));
  tir::Interpreter exclusive(te::CreatePrimFunc({x, Cumsum(x, 0, kF32, true)}));
  tir::Interpreter flat(te::CreatePrimFunc({x, Cumsum(x, std::nullopt, kF32, false)}));
  for (int64_t rows : {1, 4, 9}) {
    for (int64_t cols : {1, 3}) {
      HostTensor input = Random({rows, cols}, static_cast<unsigned>(rows * 7 + cols));
      HostTensor inc(kF32, {rows, cols}), exc(kF32, {rows, cols}), all(kF32, {rows * cols});
      inclusive.Run({&input, &inc});
      exclusive.Run({&input, &exc});
      flat.Run({&input, &all});
      double running_flat = 0;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
          double running = 0;
          for (int64_t j = 0; j < r; ++j) running += input.At({j, c});
          EXPECT_NEAR(exc.At({r, c}), running, 1e-5);
          EXPECT_NEAR(inc.At({r, c}), running + input.At({r, c}), 1e-5);
          running_flat += input.At({r, c});
          EXPECT_NEAR(all.At({r * cols + c}), running_flat, 1e-4);
        }
      }
    }
  }
}

TEST(TeNumericTest, VarianceStdAndArgmaxFlatAgainstNaive) {
  te::Tensor x = SymbolicPlaceholder(2, "x");
  tir::Interpreter variance(te::CreatePrimFunc({x, Variance(x, {1}, false)}));
  tir::Interpreter std_all(te::CreatePrimFunc({x, Std(x, {0, 1}, true)}));
  tir::Interpreter argmax_flat(te::CreatePrimFunc({x, ArgReduce(x, std::nullopt, false, true)}));
  for (int64_t rows : {1, 3, 6}) {
    for (int64_t cols : {1, 5}) {
      HostTensor input = Random({rows, cols}, static_cast<unsigned>(rows * 11 + cols));
      HostTensor var(kF32, {rows}), sd(kF32, {1, 1}), am(DataType::Int64(), {});
      variance.Run({&input, &var});
      std_all.Run({&input, &sd});
      argmax_flat.Run({&input, &am});
      double total = 0, total_sq = 0;
      int64_t best = 0;
      for (int64_t r = 0; r < rows; ++r) {
        double mean = 0, sq = 0;
        for (int64_t c = 0; c < cols; ++c) mean += input.At({r, c}) / cols;
        for (int64_t c = 0; c < cols; ++c) sq += (input.At({r, c}) - mean) * (input.At({r, c}) - mean) / cols;
        EXPECT_NEAR(var.At({r}), sq, 1e-4);
        for (int64_t c = 0; c < cols; ++c) {
          total += input.At({r, c});
          if (input.GetFloat(r * cols + c) > input.GetFloat(best)) best = r * cols + c;
        }
      }
      double mean = total / static_cast<double>(rows * cols);
      for (int64_t i = 0; i < rows * cols; ++i) total_sq += (input.GetFloat(i) - mean) * (input.GetFloat(i) - mean);
      EXPECT_NEAR(sd.At({0, 0}), std::sqrt(total_sq / static_cast<double>(rows * cols)), 1e-4);
      EXPECT_EQ(am.GetInt(0), best);
    }
  }
}

TEST(TeNumericTest, EinsumAgainstNaive) {
  ir::Var n = ir::MakeVar("n"), k = ir::MakeVar("k"), m = ir::MakeVar("m"), b = ir::MakeVar("b");
  te::Tensor a = te::Placeholder({b, n, k}, kF32, "a");
  te::Tensor c = te::Placeholder({ir::MakeInt(1), k, m}, kF32, "c");
  te::Tensor out = Einsum({a, c}, "...ij,...jk->...ik");
  tir::Interpreter batched(te::CreatePrimFunc({a, c, out}));
  te::Tensor s = te::Placeholder({n, n}, kF32, "s");
  tir::Interpreter trace(te::CreatePrimFunc({s, Einsum({s}, "ii")}));
  for (int64_t size : {1, 3, 5}) {
    HostTensor ta = Random({2, size, 4}, 1), tc = Random({1, 4, size + 1}, 2), result(kF32, {2, size, size + 1});
    batched.Run({&ta, &tc, &result});
    for (int64_t bi = 0; bi < 2; ++bi) {
      for (int64_t i = 0; i < size; ++i) {
        for (int64_t j = 0; j <= size; ++j) {
          double sum = 0;
          for (int64_t r = 0; r < 4; ++r) sum += ta.At({bi, i, r}) * tc.At({0, r, j});
          EXPECT_NEAR(result.At({bi, i, j}), sum, 1e-4);
        }
      }
    }
    HostTensor ts = Random({size, size}, 3), tr(kF32, {});
    trace.Run({&ts, &tr});
    double sum = 0;
    for (int64_t i = 0; i < size; ++i) sum += ts.At({i, i});
    EXPECT_NEAR(tr.GetFloat(0), sum, 1e-4);
  }
}

TEST(TeNumericTest, PadModesAgainstNaive) {
  te::Tensor x = SymbolicPlaceholder(2, "x");
  std::vector<int64_t> widths = {1, 2, 0, 1};
  for (const std::string mode : {"constant", "edge", "reflect"}) {
    tir::Interpreter pad(te::CreatePrimFunc({x, Pad(x, widths, 0.5, mode)}));
    for (int64_t rows : {3, 5}) {
      HostTensor input = Random({rows, 2}, 5), out(kF32, {rows + 3, 3});
      pad.Run({&input, &out});
      for (int64_t r = 0; r < rows + 3; ++r) {
        for (int64_t c = 0; c < 3; ++c) {
          int64_t sr = r - 1, sc = c;
          double expected;
          if (mode == "constant") {
            expected = sr >= 0 && sr < rows && sc < 2 ? input.At({sr, sc}) : 0.5;
          } else if (mode == "edge") {
            expected = input.At({std::clamp<int64_t>(sr, 0, rows - 1), std::clamp<int64_t>(sc, 0, 1)});
          } else {
            int64_t rr = sr < 0 ? -sr : (sr >= rows ? 2 * (rows - 1) - sr : sr);
            int64_t rc = sc >= 2 ? 2 * 1 - sc : sc;
            expected = input.At({rr, rc});
          }
          EXPECT_NEAR(out.At({r, c}), expected, 1e-6) << mode << " " << r << "," << c;
        }
      }
    }
  }
}

}  // namespace
}  // namespace rlx::op::compute
