// rlx.dnnl.conv2d and rlx.dnnl.matmul against naive references: several
// shapes, strides, padding, dilation, groups (depthwise included), every
// post-op, constant and non-constant weights, and the errors bad shapes give.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "rlx/runtime/contrib/dnnl.h"
#include "rlx/runtime/ndarray.h"
#include "rlx/runtime/packed_func.h"

namespace rlx::runtime {
namespace {

class DnnlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!contrib::DnnlAvailable()) GTEST_SKIP() << "this build has no oneDNN (RLX_USE_DNNL off or libdnnl-dev missing)";
    contrib::RegisterDnnlFunctions();
  }
};

NDArray Random(ShapeTuple shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = dist(rng);
  return NDArray::FromVector(std::move(shape), values);
}

// Applies one post_ops step (not bias/add) to a value.
float Activate(const std::string& step, float x) {
  if (step == "relu") return std::max(x, 0.f);
  if (step == "clip:0:6") return std::clamp(x, 0.f, 6.f);
  if (step == "clip:-0.5:0.25") return std::clamp(x, -0.5f, 0.25f);
  if (step == "hard_sigmoid:0.2:0.5") return std::clamp(0.2f * x + 0.5f, 0.f, 1.f);
  if (step == "hard_swish") return x * std::clamp(x + 3.f, 0.f, 6.f) / 6.f;
  if (step == "sigmoid") return 1.f / (1.f + std::exp(-x));
  if (step == "linear:1.5:-0.25") return 1.5f * x - 0.25f;
  if (step == "swish:1.5") return x / (1.f + std::exp(-1.5f * x));
  ADD_FAILURE() << "no reference for " << step;
  return x;
}

std::vector<std::string> Steps(const std::string& spec) {
  std::vector<std::string> steps;
  size_t start = 0;
  while (!spec.empty() && start <= spec.size()) {
    size_t end = std::min(spec.find(';', start), spec.size());
    steps.push_back(spec.substr(start, end - start));
    start = end + 1;
  }
  return steps;
}

// The post-ops applied in order to a raw result at flat index i.
float PostProcess(const std::vector<std::string>& steps, float value, int64_t channel, int64_t i,
                  const std::vector<float>& bias, const std::vector<float>& residual) {
  for (const std::string& step : steps) {
    if (step == "bias") {
      value += bias[static_cast<size_t>(channel)];
    } else if (step == "add") {
      value += residual[static_cast<size_t>(i)];
    } else {
      value = Activate(step, value);
    }
  }
  return value;
}

struct ConvCase {
  ShapeTuple data;  // N, C, H, W
  int64_t out_channels, kh, kw;
  ShapeTuple attrs;  // sh, sw, pt, pl, pb, pr, dh, dw, groups
  std::string post_ops;
};

std::vector<float> ReferenceConv(const ConvCase& c, const std::vector<float>& x, const std::vector<float>& w,
                                 const ShapeTuple& out_shape, const std::vector<float>& bias,
                                 const std::vector<float>& residual) {
  int64_t n = c.data[0], ch = c.data[1], h = c.data[2], wd = c.data[3];
  int64_t groups = c.attrs[8], icg = ch / groups, ocg = c.out_channels / groups;
  int64_t oh = out_shape[2], ow = out_shape[3];
  std::vector<float> y(static_cast<size_t>(n * c.out_channels * oh * ow));
  std::vector<std::string> steps = Steps(c.post_ops);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t o = 0; o < c.out_channels; ++o)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          float sum = 0.f;
          int64_t g = o / ocg;
          for (int64_t ci = 0; ci < icg; ++ci)
            for (int64_t r = 0; r < c.kh; ++r)
              for (int64_t s = 0; s < c.kw; ++s) {
                int64_t hi = i * c.attrs[0] - c.attrs[2] + r * c.attrs[6];
                int64_t wi = j * c.attrs[1] - c.attrs[3] + s * c.attrs[7];
                if (hi < 0 || hi >= h || wi < 0 || wi >= wd) continue;
                sum += x[static_cast<size_t>(((b * ch + g * icg + ci) * h + hi) * wd + wi)] *
                       w[static_cast<size_t>(((o * icg + ci) * c.kh + r) * c.kw + s)];
              }
          int64_t flat = ((b * c.out_channels + o) * oh + i) * ow + j;
          y[static_cast<size_t>(flat)] = PostProcess(steps, sum, o, flat, bias, residual);
        }
  return y;
}

ShapeTuple ConvOutShape(const ConvCase& c) {
  auto extent = [](int64_t in, int64_t p0, int64_t p1, int64_t d, int64_t k, int64_t s) {
    return (in + p0 + p1 - d * (k - 1) - 1) / s + 1;
  };
  return {c.data[0], c.out_channels, extent(c.data[2], c.attrs[2], c.attrs[4], c.attrs[6], c.kh, c.attrs[0]),
          extent(c.data[3], c.attrs[3], c.attrs[5], c.attrs[7], c.kw, c.attrs[1])};
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4f + 1e-4f * std::fabs(expected[i])) << what << " at " << i;
  }
}

void RunConvCase(const ConvCase& c, bool weight_is_const) {
  int64_t groups = c.attrs[8];
  NDArray x = Random(c.data, 1);
  NDArray w = Random({c.out_channels, c.data[1] / groups, c.kh, c.kw}, 2);
  ShapeTuple out_shape = ConvOutShape(c);
  NDArray bias = Random({c.out_channels}, 3);
  NDArray residual = Random(out_shape, 4);
  std::vector<Value> args = {x, w, c.attrs, c.post_ops, int64_t{weight_is_const}};
  std::vector<std::string> steps = Steps(c.post_ops);
  if (std::find(steps.begin(), steps.end(), "bias") != steps.end()) args.push_back(bias);
  if (std::find(steps.begin(), steps.end(), "add") != steps.end()) args.push_back(residual);
  NDArray out = NDArray::Empty(out_shape, DataType::Float(32));
  args.push_back(out);
  PackedFunc conv = Registry::GetRequired("rlx.dnnl.conv2d");
  std::vector<float> expected = ReferenceConv(c, x.ToVector<float>(), w.ToVector<float>(), out_shape,
                                              bias.ToVector<float>(), residual.ToVector<float>());
  std::string what = "conv " + ShapeToString(c.data) + " attrs " + ShapeToString(c.attrs) + " '" + c.post_ops + "'";
  // Twice: the second call reuses the cached primitive (and cached weights).
  for (int run = 0; run < 2; ++run) {
    conv.CallPacked(args);
    ExpectNear(out.ToVector<float>(), expected, what);
  }
}

TEST_F(DnnlTest, Conv2dMatchesReference) {
  std::vector<ConvCase> cases = {
      {{1, 3, 8, 8}, 4, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, ""},
      {{2, 4, 9, 7}, 8, 3, 3, {2, 2, 1, 1, 1, 1, 1, 1, 1}, "bias"},
      {{1, 8, 10, 11}, 8, 3, 3, {1, 1, 2, 2, 2, 2, 2, 2, 1}, "bias;relu"},
      {{1, 6, 7, 5}, 6, 3, 3, {1, 2, 1, 0, 1, 2, 1, 1, 6}, "bias;clip:0:6"},        // depthwise, asymmetric
      {{2, 16, 12, 12}, 16, 5, 5, {2, 2, 2, 2, 2, 2, 1, 1, 16}, "hard_swish"},     // depthwise 5x5 stride 2
      {{1, 8, 6, 6}, 12, 1, 1, {1, 1, 0, 0, 0, 0, 1, 1, 4}, "bias;hard_sigmoid:0.2:0.5"},  // grouped 1x1
      {{1, 5, 1, 1}, 7, 1, 1, {1, 1, 0, 0, 0, 0, 1, 1, 1}, "sigmoid"},             // 1x1 spatial
      {{1, 4, 13, 3}, 4, 3, 1, {3, 1, 0, 0, 2, 0, 1, 1, 1}, "bias;add;relu"},      // residual then relu
      {{1, 4, 5, 5}, 4, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, "relu;add;clip:-0.5:0.25"},
      {{1, 4, 5, 6}, 4, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, "bias;hard_swish;linear:1.5:-0.25"},
      {{1, 6, 7, 7}, 6, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 3}, "bias;swish:1.5;add"},
  };
  for (const ConvCase& c : cases) {
    RunConvCase(c, true);
    RunConvCase(c, false);
  }
}

TEST_F(DnnlTest, Conv2dConstantWeightsAreCachedPerArray) {
  // Two constant weights of the same shape share a primitive but not their
  // reordered copies.
  ConvCase c{{1, 4, 6, 6}, 8, 3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1}, "relu"};
  NDArray x = Random(c.data, 5);
  PackedFunc conv = Registry::GetRequired("rlx.dnnl.conv2d");
  for (uint32_t seed : {6u, 7u, 6u}) {
    NDArray w = Random({8, 4, 3, 3}, seed);
    NDArray out = NDArray::Empty(ConvOutShape(c), DataType::Float(32));
    conv(x, w, c.attrs, c.post_ops, int64_t{1}, out);
    ExpectNear(out.ToVector<float>(),
               ReferenceConv(c, x.ToVector<float>(), w.ToVector<float>(), ConvOutShape(c), {}, {}), "seed");
  }
}

TEST_F(DnnlTest, Conv2dRejectsBadShapes) {
  PackedFunc conv = Registry::GetRequired("rlx.dnnl.conv2d");
  NDArray x = Random({1, 4, 6, 6}, 1);
  NDArray w = Random({8, 3, 3, 3}, 2);  // 3 input channels, data has 4
  NDArray out = NDArray::Empty({1, 8, 6, 6}, DataType::Float(32));
  ShapeTuple attrs = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  try {
    conv(x, w, attrs, "", int64_t{1}, out);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("input channels"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(1, 4, 6, 6)"), std::string::npos) << e.what();
  }
  NDArray w4 = Random({8, 4, 3, 3}, 2);
  NDArray wrong_out = NDArray::Empty({1, 8, 5, 6}, DataType::Float(32));
  EXPECT_THROW(conv(x, w4, attrs, "", int64_t{1}, wrong_out), RuntimeError);
  EXPECT_THROW(conv(x, w4, attrs, "gelu", int64_t{1}, out), RuntimeError);
  EXPECT_THROW(conv(x, w4, attrs, "bias", int64_t{1}, out), RuntimeError);  // the bias tensor is missing
  EXPECT_THROW(conv(x, w4, ShapeTuple{1, 1}, "", int64_t{1}, out), RuntimeError);
}

// conv2d_transpose: data NCHW, weight IOHW (C, O / groups, KH, KW), attrs
// (sh, sw, pt, pl, pb, pr, oph, opw, dh, dw, groups).
struct DeconvCase {
  ShapeTuple data;
  int64_t out_per_group, kh, kw;
  ShapeTuple attrs;
  std::string post_ops;
};

ShapeTuple DeconvOutShape(const DeconvCase& c) {
  auto extent = [](int64_t in, int64_t p0, int64_t p1, int64_t op, int64_t d, int64_t k, int64_t s) {
    return (in - 1) * s - p0 - p1 + d * (k - 1) + op + 1;
  };
  const ShapeTuple& a = c.attrs;
  return {c.data[0], c.out_per_group * a[10], extent(c.data[2], a[2], a[4], a[6], a[8], c.kh, a[0]),
          extent(c.data[3], a[3], a[5], a[7], a[9], c.kw, a[1])};
}

// The scatter definition: every input element adds data * weight to the
// output position it reaches through each kernel tap.
std::vector<float> ReferenceDeconv(const DeconvCase& c, const std::vector<float>& x, const std::vector<float>& w,
                                   const ShapeTuple& out_shape, const std::vector<float>& bias,
                                   const std::vector<float>& residual) {
  const ShapeTuple& a = c.attrs;
  int64_t n = c.data[0], ch = c.data[1], h = c.data[2], wd = c.data[3];
  int64_t icg = ch / a[10], ocg = c.out_per_group, oc = out_shape[1], oh = out_shape[2], ow = out_shape[3];
  std::vector<float> y(static_cast<size_t>(n * oc * oh * ow), 0.f);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ci = 0; ci < ch; ++ci)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < wd; ++j)
          for (int64_t oo = 0; oo < ocg; ++oo)
            for (int64_t r = 0; r < c.kh; ++r)
              for (int64_t s = 0; s < c.kw; ++s) {
                int64_t yi = i * a[0] - a[2] + r * a[8], yj = j * a[1] - a[3] + s * a[9];
                if (yi < 0 || yi >= oh || yj < 0 || yj >= ow) continue;
                int64_t o = ci / icg * ocg + oo;
                y[static_cast<size_t>(((b * oc + o) * oh + yi) * ow + yj)] +=
                    x[static_cast<size_t>(((b * ch + ci) * h + i) * wd + j)] *
                    w[static_cast<size_t>(((ci * ocg + oo) * c.kh + r) * c.kw + s)];
              }
  std::vector<std::string> steps = Steps(c.post_ops);
  for (size_t flat = 0; flat < y.size(); ++flat) {
    int64_t o = static_cast<int64_t>(flat) / (oh * ow) % oc;
    y[flat] = PostProcess(steps, y[flat], o, static_cast<int64_t>(flat), bias, residual);
  }
  return y;
}

TEST_F(DnnlTest, Conv2dTransposeMatchesReference) {
  std::vector<DeconvCase> cases = {
      {{1, 3, 5, 5}, 4, 3, 3, {1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1}, ""},
      {{2, 4, 6, 7}, 2, 2, 2, {2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1}, "bias;relu"},           // det's upsampling
      {{1, 4, 5, 4}, 3, 3, 3, {2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "bias;sigmoid"},        // padding + output_padding
      {{1, 4, 4, 5}, 2, 4, 3, {2, 3, 0, 1, 1, 0, 1, 2, 1, 1, 1}, "bias;add;clip:0:6"},   // output_padding > padding
      {{1, 6, 5, 5}, 2, 3, 3, {2, 2, 1, 1, 1, 1, 1, 0, 1, 1, 3}, "bias;hard_swish;linear:1.5:-0.25"},  // groups
      {{1, 4, 4, 4}, 1, 3, 3, {1, 1, 2, 2, 2, 2, 0, 0, 2, 2, 4}, "linear:1.5:-0.25"},   // depthwise, dilation
      {{1, 2, 1, 1}, 3, 1, 1, {1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1}, "swish:1.5"},          // 1x1
  };
  PackedFunc deconv = Registry::GetRequired("rlx.dnnl.conv2d_transpose");
  for (const DeconvCase& c : cases) {
    for (bool weight_is_const : {true, false}) {
      NDArray x = Random(c.data, 21), w = Random({c.data[1], c.out_per_group, c.kh, c.kw}, 22);
      ShapeTuple out_shape = DeconvOutShape(c);
      NDArray bias = Random({out_shape[1]}, 23), residual = Random(out_shape, 24);
      std::vector<Value> args = {x, w, c.attrs, c.post_ops, int64_t{weight_is_const}};
      std::vector<std::string> steps = Steps(c.post_ops);
      if (std::find(steps.begin(), steps.end(), "bias") != steps.end()) args.push_back(bias);
      if (std::find(steps.begin(), steps.end(), "add") != steps.end()) args.push_back(residual);
      NDArray out = NDArray::Empty(out_shape, DataType::Float(32));
      args.push_back(out);
      std::vector<float> expected = ReferenceDeconv(c, x.ToVector<float>(), w.ToVector<float>(), out_shape,
                                                    bias.ToVector<float>(), residual.ToVector<float>());
      for (int run = 0; run < 2; ++run) {
        deconv.CallPacked(args);
        ExpectNear(out.ToVector<float>(), expected,
                   "conv2d_transpose " + ShapeToString(c.data) + " attrs " + ShapeToString(c.attrs) + " '" +
                       c.post_ops + "'");
      }
    }
  }
}

TEST_F(DnnlTest, Conv2dTransposeRejectsBadShapes) {
  PackedFunc deconv = Registry::GetRequired("rlx.dnnl.conv2d_transpose");
  NDArray x = Random({1, 4, 3, 3}, 1);
  NDArray w = Random({3, 2, 2, 2}, 2);  // 3 input channels, data has 4
  NDArray out = NDArray::Empty({1, 2, 6, 6}, DataType::Float(32));
  ShapeTuple attrs = {2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1};
  try {
    deconv(x, w, attrs, "", int64_t{1}, out);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("input channels"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(1, 4, 3, 3)"), std::string::npos) << e.what();
  }
  NDArray w4 = Random({4, 2, 2, 2}, 2);
  NDArray wrong_out = NDArray::Empty({1, 2, 6, 7}, DataType::Float(32));
  EXPECT_THROW(deconv(x, w4, attrs, "", int64_t{1}, wrong_out), RuntimeError);
  EXPECT_THROW(deconv(x, w4, ShapeTuple{2, 2, 0, 0, 0, 0, 0, 0, 1}, "", int64_t{1}, out), RuntimeError);
  EXPECT_THROW(deconv(x, w4, attrs, "linear:1", int64_t{1}, out), RuntimeError);
}

struct MatmulCase {
  ShapeTuple a, b;
  std::string post_ops;
};

ShapeTuple BroadcastMatmulShape(const ShapeTuple& a, const ShapeTuple& b) {
  size_t rank = std::max(a.size(), b.size());
  ShapeTuple out(rank);
  for (size_t i = 0; i + 2 < rank; ++i) {
    int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    out[i] = std::max(da, db);
  }
  out[rank - 2] = a[a.size() - 2];
  out[rank - 1] = b.back();
  return out;
}

std::vector<float> ReferenceMatmul(const MatmulCase& c, const ShapeTuple& out_shape, const std::vector<float>& a,
                                   const std::vector<float>& b, const std::vector<float>& bias,
                                   const std::vector<float>& residual) {
  size_t rank = out_shape.size();
  int64_t m = out_shape[rank - 2], n = out_shape[rank - 1], k = c.a.back();
  int64_t batches = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batches *= out_shape[i];
  // Offset of batch index `flat` in an operand of shape `s` (broadcast dims of 1).
  auto offset = [&](const ShapeTuple& s, int64_t flat) {
    int64_t off = 0, stride = s[s.size() - 2] * s.back();
    for (size_t i = rank - 2; i-- > 0;) {
      int64_t idx = flat % out_shape[i];
      flat /= out_shape[i];
      if (i + s.size() < rank) continue;
      int64_t dim = s[i + s.size() - rank];
      off += (dim == 1 ? 0 : idx) * stride;
      stride *= dim;
    }
    return off;
  };
  std::vector<std::string> steps = Steps(c.post_ops);
  std::vector<float> y(static_cast<size_t>(batches * m * n));
  for (int64_t t = 0; t < batches; ++t)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0.f;
        for (int64_t p = 0; p < k; ++p) {
          sum += a[static_cast<size_t>(offset(c.a, t) + i * k + p)] * b[static_cast<size_t>(offset(c.b, t) + p * n + j)];
        }
        int64_t flat = (t * m + i) * n + j;
        y[static_cast<size_t>(flat)] = PostProcess(steps, sum, j, flat, bias, residual);
      }
  return y;
}

TEST_F(DnnlTest, MatmulMatchesReference) {
  std::vector<MatmulCase> cases = {
      {{5, 7}, {7, 3}, ""},
      {{2, 3, 16}, {16, 10}, "bias;relu"},               // weight: rows of all batches at once
      {{4, 6, 8}, {4, 8, 5}, "sigmoid"},                 // batched
      {{2, 1, 3, 4}, {5, 4, 2}, "bias;hard_swish"},      // broadcast batch dims
      {{1, 9}, {9, 33}, "bias;add;clip:0:6"},
      {{3, 2, 5}, {1, 5, 4}, "add;hard_sigmoid:0.2:0.5"},
      {{2, 7, 12}, {12, 6}, "bias;swish:1.5;linear:1.5:-0.25"},
  };
  PackedFunc matmul = Registry::GetRequired("rlx.dnnl.matmul");
  for (const MatmulCase& c : cases) {
    for (bool b_is_const : {true, false}) {
      NDArray a = Random(c.a, 11), b = Random(c.b, 12);
      ShapeTuple out_shape = BroadcastMatmulShape(c.a, c.b);
      NDArray bias = Random({c.b.back()}, 13), residual = Random(out_shape, 14);
      std::vector<Value> args = {a, b, c.post_ops, int64_t{b_is_const}};
      std::vector<std::string> steps = Steps(c.post_ops);
      if (std::find(steps.begin(), steps.end(), "bias") != steps.end()) args.push_back(bias);
      if (std::find(steps.begin(), steps.end(), "add") != steps.end()) args.push_back(residual);
      NDArray out = NDArray::Empty(out_shape, DataType::Float(32));
      args.push_back(out);
      std::vector<float> expected = ReferenceMatmul(c, out_shape, a.ToVector<float>(), b.ToVector<float>(),
                                                    bias.ToVector<float>(), residual.ToVector<float>());
      for (int run = 0; run < 2; ++run) {
        matmul.CallPacked(args);
        ExpectNear(out.ToVector<float>(), expected, "matmul " + ShapeToString(c.a) + " x " + ShapeToString(c.b));
      }
    }
  }
}

TEST_F(DnnlTest, MatmulRejectsBadShapes) {
  PackedFunc matmul = Registry::GetRequired("rlx.dnnl.matmul");
  NDArray a = Random({2, 3}, 1), b = Random({4, 5}, 2);
  NDArray out = NDArray::Empty({2, 5}, DataType::Float(32));
  try {
    matmul(a, b, "", int64_t{0}, out);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("reduction"), std::string::npos) << e.what();
  }
  NDArray a2 = Random({3, 2, 4}, 1), b2 = Random({2, 4, 5}, 2);
  NDArray out2 = NDArray::Empty({3, 2, 5}, DataType::Float(32));
  EXPECT_THROW(matmul(a2, b2, "", int64_t{0}, out2), RuntimeError);  // batch 3 vs 2
}

}  // namespace
}  // namespace rlx::runtime
