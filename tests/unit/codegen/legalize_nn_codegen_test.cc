// The nn / statistical / image / einsum legalizations compiled through LLVM
// (the JIT, at the default opt level, so ScheduleInjectiveCPU runs too) and
// checked three ways, at several values of every symbolic size:
//   - against PyTorch (tests/data/op_reference, written by
//     tests/data/gen_op_reference.py, the data the interpreter tests in
//     tests/unit/op use), on the data's sizes and, where the leading
//     dimension is a batch, on its first 1 and an odd number of rows;
//   - against naive C++ loops written here, at sizes 1, odd and larger;
//   - against the TIR interpreter running the same PrimFunc, at sizes the
//     reference data does not cover.
// Lives here because only the codegen tests may link LLVM.
//
// Tolerances. References are float64 results rounded to float32. The
// compiled float32 kernels accumulate in float32 and use the codegen's
// inline exp and tanh (fast_math_test.cc: within about 1 ulp, so the
// softmax family, attention, sigmoid, silu and gelu_tanh inherit a few
// ulp); erf is LLVM's libm call. Reductions here sum at most a few hundred
// terms of magnitude <= ~10, whose float32 rounding stays below 1e-5
// relative to the result plus 1e-5 absolute, so that is the default;
// variance/std subtract a mean (cancellation on inputs offset by +2) and get
// 1e-4. Index-valued results (argmax, argmin) and data movement (pad,
// max_pool) must match exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nn_reference_util.h"

namespace rlx::op_test {
namespace {

using tir::HostTensor;

const DataType kF32 = DataType::Float32();
const DataType kI32 = DataType::Int32();
const DataType kI64 = DataType::Int64();
constexpr double kRel = 1e-5, kAbs = 1e-5;

using Params = std::vector<std::pair<std::string, std::string>>;

std::string F32(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

// ---------------------------------------------------------------- PyTorch data

struct ReferenceCase {
  std::string reference;            // tests/data/op_reference/<reference>.*
  std::vector<std::string> inputs;  // reference arrays, in parameter order
  Params params;
  std::string body;
  // The first `batched` inputs and the output share a leading batch
  // dimension: they are also checked on their first rows.
  int batched = 1;
  double rel = kRel, abs_tol = kAbs;
};

void CheckAgainstPyTorch(const ReferenceCase& c) {
  SCOPED_TRACE(c.reference + ": " + c.body);
  CompiledOp op = LegalizeAndCompile(c.params, c.body);
  ASSERT_TRUE(op.op.func.defined());
  std::vector<HostTensor> inputs;
  for (const std::string& name : c.inputs) inputs.push_back(LoadOpReference(c.reference, name));
  HostTensor expected = LoadOpReference(c.reference, "out");
  std::vector<int64_t> row_counts = {expected.shape.empty() ? 1 : expected.shape[0]};
  if (c.batched > 0) row_counts = SizesUpTo(expected.shape[0]);
  for (int64_t rows : row_counts) {
    std::vector<HostTensor> sliced = inputs;
    for (int i = 0; i < c.batched; ++i) sliced[i] = LeadingRows(inputs[i], rows);
    HostTensor want = c.batched > 0 ? LeadingRows(expected, rows) : expected;
    HostTensor got = RunCompiledInto(op, sliced, {HostTensor(want.dtype, want.shape)})[0];
    ExpectAllClose(got, want, c.rel, c.abs_tol, c.reference + " rows=" + std::to_string(rows));
  }
}

const char* const kX2 = R"(("n", "m"))";
const char* const kX4 = R"(("n", "c", "h", "w"))";

TEST(LegalizeNNCodegenTest, UnaryMathAgainstPyTorch) {
  for (const auto& [name, call] : std::vector<std::pair<std::string, std::string>>{
           {"gelu", "R.nn.gelu(x)"},
           {"gelu_tanh", "R.nn.gelu_tanh(x)"},
           {"erf", "R.erf(x)"},
           {"silu", "R.nn.silu(x)"},
           {"sigmoid", "R.sigmoid(x)"}}) {
    // A few ulp of the inline exp/tanh, relative, plus float32 resolution
    // near zero (gelu and silu of tiny inputs).
    CheckAgainstPyTorch({name, {"x"}, {{"x", F32(R"(("n", 3))")}}, call, 1, 4e-6, 1e-7});
  }
}

TEST(LegalizeNNCodegenTest, SoftmaxFamilyAgainstPyTorch) {
  CheckAgainstPyTorch({"softmax_2d", {"x"}, {{"x", F32(kX2)}}, "R.nn.softmax(x, axis=-1)"});
  CheckAgainstPyTorch({"softmax_row", {"x"}, {{"x", F32(kX2)}}, "R.nn.softmax(x)"});
  CheckAgainstPyTorch({"softmax_3d_axis1", {"x"}, {{"x", F32(R"(("a", "b", "c"))")}}, "R.nn.softmax(x, axis=1)"});
  CheckAgainstPyTorch({"log_softmax_2d", {"x"}, {{"x", F32(kX2)}}, "R.nn.log_softmax(x, axis=1)"});
  CheckAgainstPyTorch({"log_softmax_3d_axis1", {"x"}, {{"x", F32(R"(("a", "b", "c"))")}},
                       "R.nn.log_softmax(x, axis=1)"});
}

TEST(LegalizeNNCodegenTest, NormalizationsAgainstPyTorch) {
  CheckAgainstPyTorch({"layer_norm", {"x", "gamma", "beta"},
                       {{"x", F32(R"(("b", "s", 8))")}, {"g", F32("(8,)")}, {"bt", F32("(8,)")}},
                       "R.nn.layer_norm(x, g, bt, axes=[-1], epsilon=1e-05)", 1, 1e-5, 1e-5});
  CheckAgainstPyTorch({"layer_norm_2axes", {"x", "gamma", "beta"},
                       {{"x", F32(R"(("b", 3, 4, 5))")}, {"g", F32("(4, 5)")}, {"bt", F32("(4, 5)")}},
                       "R.nn.layer_norm(x, g, bt, axes=[-2, -1])"});
  CheckAgainstPyTorch({"rms_norm", {"x", "weight"}, {{"x", F32(R"(("n", 8))")}, {"wt", F32("(8,)")}},
                       "R.nn.rms_norm(x, wt, axes=[1], epsilon=1e-06)"});
  CheckAgainstPyTorch({"group_norm", {"x", "gamma", "beta"},
                       {{"x", F32(R"(("n", 6, "h", "w"))")}, {"g", F32("(6,)")}, {"bt", F32("(6,)")}},
                       "R.nn.group_norm(x, g, bt, num_groups=3, channel_axis=1, axes=[2, 3])"});
}

TEST(LegalizeNNCodegenTest, BatchNormInferenceAgainstPyTorch) {
  CompiledOp op = LegalizeAndCompile({{"x", F32(R"(("n", 3, "h", "w"))")},
                                      {"g", F32("(3,)")},
                                      {"bt", F32("(3,)")},
                                      {"m", F32("(3,)")},
                                      {"v", F32("(3,)")}},
                                     "R.nn.batch_norm(x, g, bt, m, v, axis=1)");
  ASSERT_TRUE(op.op.func.defined());
  std::vector<HostTensor> inputs;
  for (const char* name : {"x", "gamma", "beta", "mean", "var"}) inputs.push_back(LoadOpReference("batch_norm", name));
  HostTensor expected = LoadOpReference("batch_norm", "out");
  for (int64_t rows : SizesUpTo(expected.shape[0])) {
    std::vector<HostTensor> sliced = inputs;
    sliced[0] = LeadingRows(inputs[0], rows);
    HostTensor want = LeadingRows(expected, rows);
    std::vector<HostTensor> got =
        RunCompiledInto(op, sliced, {HostTensor(kF32, want.shape), HostTensor(kF32, {3}), HostTensor(kF32, {3})});
    ExpectAllClose(got[0], want, kRel, kAbs, "batch_norm");
    // Inference returns the moving statistics unchanged.
    ExpectAllClose(got[1], inputs[3], 0, 0, "batch_norm moving mean");
    ExpectAllClose(got[2], inputs[4], 0, 0, "batch_norm moving var");
  }
}

TEST(LegalizeNNCodegenTest, ConvolutionsAgainstPyTorch) {
  CheckAgainstPyTorch({"conv2d_stride2_pad1", {"x", "w"}, {{"x", F32(kX4)}, {"wt", F32("(4, 3, 3, 3)")}},
                       "R.nn.conv2d(x, wt, strides=2, padding=(1, 1))"});
  CheckAgainstPyTorch({"conv2d_groups2_dilation2", {"x", "w"}, {{"x", F32(kX4)}, {"wt", F32("(6, 2, 3, 3)")}},
                       "R.nn.conv2d(x, wt, padding=[2, 2, 2, 2], dilation=[2, 2], groups=2)"});
  CheckAgainstPyTorch({"conv1d_stride2_pad1", {"x", "w"}, {{"x", F32(R"(("n", 3, "l"))")}, {"wt", F32("(4, 3, 3)")}},
                       "R.nn.conv1d(x, wt, strides=[2], padding=[1])"});
  CheckAgainstPyTorch({"conv2d_transpose", {"x", "w"}, {{"x", F32(kX4)}, {"wt", F32("(4, 3, 3, 3)")}},
                       "R.nn.conv2d_transpose(x, wt, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1])"});
  CheckAgainstPyTorch({"conv2d_transpose_groups2", {"x", "w"}, {{"x", F32(kX4)}, {"wt", F32("(4, 2, 3, 3)")}},
                       "R.nn.conv2d_transpose(x, wt, groups=2)"});
}

TEST(LegalizeNNCodegenTest, Conv2dNHWCAgainstPyTorch) {
  CompiledOp op = LegalizeAndCompile({{"x", F32(R"(("n", "h", "w", "c"))")}, {"wt", F32("(3, 3, 3, 4)")}},
                                     R"(R.nn.conv2d(x, wt, strides=2, padding=(1, 1), data_layout="NHWC", kernel_layout="HWIO"))");
  ASSERT_TRUE(op.op.func.defined());
  HostTensor x = Permuted(LoadOpReference("conv2d_stride2_pad1", "x"), {0, 2, 3, 1});
  HostTensor w = Permuted(LoadOpReference("conv2d_stride2_pad1", "w"), {2, 3, 1, 0});
  HostTensor expected = Permuted(LoadOpReference("conv2d_stride2_pad1", "out"), {0, 2, 3, 1});
  for (int64_t rows : {1, 2}) {
    HostTensor want = LeadingRows(expected, rows);
    HostTensor got = RunCompiledInto(op, {LeadingRows(x, rows), w}, {HostTensor(kF32, want.shape)})[0];
    ExpectAllClose(got, want, kRel, kAbs, "conv2d NHWC");
  }
}

TEST(LegalizeNNCodegenTest, PoolingAgainstPyTorch) {
  CheckAgainstPyTorch({"max_pool2d", {"x"}, {{"x", F32(kX4)}},
                       "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])", 1, 0, 0});
  CheckAgainstPyTorch({"max_pool2d_ceil", {"x"}, {{"x", F32(kX4)}},
                       "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)", 1, 0, 0});
  CheckAgainstPyTorch({"avg_pool2d_include_pad", {"x"}, {{"x", F32(kX4)}},
                       "R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1], count_include_pad=True)"});
  CheckAgainstPyTorch({"avg_pool2d_exclude_pad", {"x"}, {{"x", F32(kX4)}},
                       "R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])"});
  CheckAgainstPyTorch({"adaptive_avg_pool2d", {"x"}, {{"x", F32(kX4)}}, "R.nn.adaptive_avg_pool2d(x, output_size=[3, 2])"});
}

TEST(LegalizeNNCodegenTest, PadAgainstPyTorch) {
  CheckAgainstPyTorch({"pad_constant", {"x"}, {{"x", F32(kX2)}}, "R.nn.pad(x, pad_width=[1, 0, 0, 2], pad_value=-1.0)",
                       0, 0, 0});
  CheckAgainstPyTorch({"pad_reflect", {"x"}, {{"x", F32(kX4)}},
                       R"(R.nn.pad(x, pad_width=[0, 0, 0, 0, 1, 2, 2, 1], pad_mode="reflect"))", 1, 0, 0});
}

TEST(LegalizeNNCodegenTest, ResizeAgainstPyTorch) {
  CheckAgainstPyTorch({"resize_linear_half_pixel", {"x"}, {{"x", F32(kX4)}}, "R.image.resize2d(x, R.shape([7, 3]))"});
  CheckAgainstPyTorch({"resize_linear_align_corners", {"x"}, {{"x", F32(kX4)}},
                       R"(R.image.resize2d(x, R.shape([7, 3]), coordinate_transformation_mode="align_corners"))"});
  CheckAgainstPyTorch(
      {"resize_nearest_asymmetric", {"x"}, {{"x", F32(kX4)}},
       R"(R.image.resize2d(x, R.shape([8, 10]), method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor"))",
       1, 0, 0});
}

TEST(LegalizeNNCodegenTest, AttentionAgainstPyTorch) {
  Params qkv = {{"q", F32(R"(("b", "s", "h", "d"))")},
                {"k", F32(R"(("b", "t", "h", "d"))")},
                {"v", F32(R"(("b", "t", "h", "dv"))")}};
  Params with_bias = qkv;
  with_bias.push_back({"bias", F32(R"(("b", "h", "s", "t"))")});
  CheckAgainstPyTorch({"attention", {"q", "k", "v"}, qkv, "R.nn.attention(q, k, v)", 3});
  CheckAgainstPyTorch({"attention_bias_scale", {"q", "k", "v", "bias"}, with_bias,
                       "R.nn.attention(q, k, v, bias, scale=0.3)", 4});
  CheckAgainstPyTorch({"attention_causal_top_left", {"q", "k", "v"}, qkv,
                       R"(R.nn.attention(q, k, v, causal_mask="TopLeft"))", 3});
  CheckAgainstPyTorch({"attention_causal_bottom_right", {"q", "k", "v"}, qkv,
                       R"(R.nn.attention(q, k, v, causal_mask="BottomRight"))", 3});
}

TEST(LegalizeNNCodegenTest, StatisticalAndEinsumAgainstPyTorch) {
  CheckAgainstPyTorch({"variance_axis1", {"x"}, {{"x", F32(kX2)}}, "R.variance(x, axis=[1])", 1, 1e-4, 1e-5});
  CheckAgainstPyTorch({"std_all_keepdims", {"x"}, {{"x", F32(kX2)}}, "R.std(x, keepdims=True)", 0, 1e-4, 1e-5});
  CheckAgainstPyTorch({"cumsum_axis1", {"x"}, {{"x", F32(kX2)}}, "R.cumsum(x, axis=-1)"});
  CheckAgainstPyTorch({"cumsum_exclusive_axis0", {"x"}, {{"x", F32(kX2)}}, "R.cumsum(x, axis=0, exclusive=True)"});
  CheckAgainstPyTorch({"argmax_ties", {"x"}, {{"x", F32(kX2)}}, "R.argmax(x, axis=1)", 1, 0, 0});
  CheckAgainstPyTorch({"argmin_ties", {"x"}, {{"x", F32(kX2)}}, "R.argmin(x, axis=-1)", 1, 0, 0});
  CheckAgainstPyTorch({"einsum_batched_matmul", {"a", "c"},
                       {{"a", F32(R"(("b", "n", "k"))")}, {"c", F32(R"((1, "k", "m"))")}},
                       R"(R.einsum((a, c), subscripts="...ij,...jk->...ik"))"});
  CheckAgainstPyTorch({"einsum_trace", {"s"}, {{"s", F32(R"(("n", "n"))")}}, R"(R.einsum((s,), subscripts="ii"))", 0});
}

// ---------------------------------------------------------------- naive loops

// Runs `op` at `sizes` on random inputs shaped by main's parameters.
std::vector<HostTensor> RandomInputs(const CompiledOp& op, const std::map<std::string, int64_t>& sizes,
                                     unsigned seed, double lo = -2.0, double hi = 2.0) {
  auto main = cast<graph::FunctionNode>(op.op.mod->Lookup("main"));
  std::vector<HostTensor> inputs;
  for (const graph::Var& param : main->params) {
    auto tensor = cast<graph::TensorStructInfoNode>(graph::GetStructInfo(param));
    std::vector<int64_t> shape;
    std::vector<PrimExpr> dims = tensor->GetShape().value();
    for (const PrimExpr& dim : dims) shape.push_back(EvaluateDim(dim, sizes));
    inputs.push_back(RandomTensor(tensor->dtype, shape, seed++, lo, hi));
  }
  return inputs;
}

TEST(LegalizeNNCodegenTest, SoftmaxAndNormsAtSymbolicSizesAgainstNaive) {
  CompiledOp softmax0 = LegalizeAndCompile({{"x", F32(kX2)}}, "R.nn.softmax(x, axis=0)");
  CompiledOp log_softmax = LegalizeAndCompile({{"x", F32(kX2)}}, "R.nn.log_softmax(x, axis=1)");
  CompiledOp layer_norm = LegalizeAndCompile({{"x", F32(kX2)}, {"g", F32(R"(("m",))")}, {"bt", F32(R"(("m",))")}},
                                             "R.nn.layer_norm(x, g, bt, axes=[-1], epsilon=1e-05)");
  CompiledOp rms_norm =
      LegalizeAndCompile({{"x", F32(kX2)}, {"wt", F32(R"(("m",))")}}, "R.nn.rms_norm(x, wt, axes=[1], epsilon=1e-06)");
  for (int64_t n : {1, 5, 40}) {
    for (int64_t m : {1, 7, 67}) {
      std::map<std::string, int64_t> sizes = {{"n", n}, {"m", m}};
      std::string where = std::to_string(n) + "x" + std::to_string(m);
      std::vector<HostTensor> in = RandomInputs(layer_norm, sizes, static_cast<unsigned>(n * 100 + m), -4, 4);
      const HostTensor& x = in[0];
      std::vector<double> sm(n * m), lsm(n * m), ln(n * m), rms(n * m);
      for (int64_t j = 0; j < m; ++j) {
        double max_value = -1e30, sum = 0;
        for (int64_t i = 0; i < n; ++i) max_value = std::max(max_value, x.At({i, j}));
        for (int64_t i = 0; i < n; ++i) sum += std::exp(x.At({i, j}) - max_value);
        for (int64_t i = 0; i < n; ++i) sm[i * m + j] = std::exp(x.At({i, j}) - max_value) / sum;
      }
      for (int64_t i = 0; i < n; ++i) {
        double max_value = -1e30, sum = 0, mean = 0, var = 0, sq = 0;
        for (int64_t j = 0; j < m; ++j) max_value = std::max(max_value, x.At({i, j}));
        for (int64_t j = 0; j < m; ++j) sum += std::exp(x.At({i, j}) - max_value);
        for (int64_t j = 0; j < m; ++j) mean += x.At({i, j}) / m;
        for (int64_t j = 0; j < m; ++j) var += (x.At({i, j}) - mean) * (x.At({i, j}) - mean) / m;
        for (int64_t j = 0; j < m; ++j) sq += x.At({i, j}) * x.At({i, j}) / m;
        for (int64_t j = 0; j < m; ++j) {
          lsm[i * m + j] = x.At({i, j}) - max_value - std::log(sum);
          ln[i * m + j] = (x.At({i, j}) - mean) / std::sqrt(var + 1e-5) * in[1].At({j}) + in[2].At({j});
          rms[i * m + j] = x.At({i, j}) / std::sqrt(sq + 1e-6) * in[1].At({j});
        }
      }
      ExpectTensorNear(RunCompiledAt(softmax0, {x}, sizes)[0], {n, m}, sm, kRel, 1e-7, "softmax axis 0 " + where);
      ExpectTensorNear(RunCompiledAt(log_softmax, {x}, sizes)[0], {n, m}, lsm, kRel, kAbs, "log_softmax " + where);
      // layer_norm of a single element is beta (zero deviation); float32
      // rounding of mean and variance over m = 67 terms stays under 1e-4.
      ExpectTensorNear(RunCompiledAt(layer_norm, in, sizes)[0], {n, m}, ln, 1e-4, 1e-4, "layer_norm " + where);
      ExpectTensorNear(RunCompiledAt(rms_norm, {x, in[1]}, sizes)[0], {n, m}, rms, kRel, kAbs, "rms_norm " + where);
    }
  }
}

TEST(LegalizeNNCodegenTest, CumsumAtSymbolicSizesAgainstNaive) {
  CompiledOp inclusive = LegalizeAndCompile({{"x", F32(kX2)}}, "R.cumsum(x, axis=1)");
  CompiledOp exclusive = LegalizeAndCompile({{"x", F32(kX2)}}, "R.cumsum(x, axis=0, exclusive=True)");
  CompiledOp flat = LegalizeAndCompile({{"x", R"(R.Tensor(("n", "m"), dtype="int32"))"}},
                                       R"(R.cumsum(x, dtype="int64", exclusive=True))");
  for (int64_t n : {1, 3, 33}) {
    for (int64_t m : {1, 9, 130}) {
      std::map<std::string, int64_t> sizes = {{"n", n}, {"m", m}};
      std::string where = std::to_string(n) + "x" + std::to_string(m);
      HostTensor x = RandomTensor(kF32, {n, m}, static_cast<unsigned>(n * 7 + m));
      HostTensor xi = RandomTensor(kI32, {n, m}, static_cast<unsigned>(n * 5 + m), -1000, 1000);
      std::vector<double> inc(n * m), exc(n * m), all(n * m);
      int64_t running_flat = 0;
      for (int64_t i = 0; i < n; ++i) {
        double running = 0;
        for (int64_t j = 0; j < m; ++j) {
          running += x.At({i, j});
          inc[i * m + j] = running;
          all[i * m + j] = static_cast<double>(running_flat);
          running_flat += xi.GetInt(i * m + j);
        }
      }
      for (int64_t j = 0; j < m; ++j) {
        double running = 0;
        for (int64_t i = 0; i < n; ++i) {
          exc[i * m + j] = running;
          running += x.At({i, j});
        }
      }
      // A float32 running sum of up to 130 terms in [-2, 2]: 1e-5 relative
      // to the partial sums' magnitude (up to ~25), hence 1e-4 absolute.
      ExpectTensorNear(RunCompiledAt(inclusive, {x}, sizes)[0], {n, m}, inc, kRel, 1e-4, "inclusive " + where);
      ExpectTensorNear(RunCompiledAt(exclusive, {x}, sizes)[0], {n, m}, exc, kRel, 1e-4, "exclusive " + where);
      HostTensor got = RunCompiledAt(flat, {xi}, sizes)[0];
      EXPECT_EQ(got.dtype, kI64);
      ExpectTensorNear(got, {n * m}, all, 0, 0, "flat int64 " + where);
    }
  }
}

TEST(LegalizeNNCodegenTest, ArgReduceTiesStatisticsPadEinsumAtSymbolicSizesAgainstNaive) {
  CompiledOp argmax = LegalizeAndCompile({{"x", F32(kX2)}}, "R.argmax(x, axis=1)");
  CompiledOp argmin = LegalizeAndCompile({{"x", F32(kX2)}}, "R.argmin(x, axis=0, keepdims=True)");
  CompiledOp variance = LegalizeAndCompile({{"x", F32(kX2)}}, "R.variance(x, axis=[1])");
  CompiledOp std_all = LegalizeAndCompile({{"x", F32(kX2)}}, "R.std(x)");
  CompiledOp pad = LegalizeAndCompile({{"x", F32(kX2)}}, "R.nn.pad(x, pad_width=[1, 0, 0, 2], pad_value=-1.0)");
  CompiledOp einsum = LegalizeAndCompile({{"a", F32(R"(("n", "m"))")}, {"c", F32(R"(("m", 3))")}},
                                         R"(R.einsum((a, c), subscripts="ij,jk->ik"))");
  for (int64_t n : {1, 5, 24}) {
    for (int64_t m : {1, 3, 37}) {
      std::map<std::string, int64_t> sizes = {{"n", n}, {"m", m}};
      std::string where = std::to_string(n) + "x" + std::to_string(m);
      // Small integers: many ties.
      HostTensor ties(kF32, {n, m});
      HostTensor x = RandomTensor(kF32, {n, m}, static_cast<unsigned>(n * 3 + m), -2, 6);
      for (int64_t i = 0; i < n * m; ++i) ties.SetFloat(i, std::floor(x.GetFloat(i) / 2));
      std::vector<double> amax(n), amin(m), var(n), padded((n + 1) * (m + 2)), prod(n * 3);
      for (int64_t i = 0; i < n; ++i) {
        int64_t best = 0;
        double mean = 0;
        for (int64_t j = 0; j < m; ++j) best = ties.At({i, j}) > ties.At({i, best}) ? j : best;
        for (int64_t j = 0; j < m; ++j) mean += x.At({i, j}) / m;
        for (int64_t j = 0; j < m; ++j) var[i] += (x.At({i, j}) - mean) * (x.At({i, j}) - mean) / m;
        amax[i] = static_cast<double>(best);
      }
      for (int64_t j = 0; j < m; ++j) {
        int64_t best = 0;
        for (int64_t i = 0; i < n; ++i) best = ties.At({i, j}) < ties.At({best, j}) ? i : best;
        amin[j] = static_cast<double>(best);
      }
      double total = 0, total_sq = 0;
      for (int64_t i = 0; i < n * m; ++i) total += x.GetFloat(i);
      for (int64_t i = 0; i < n * m; ++i) total_sq += std::pow(x.GetFloat(i) - total / (n * m), 2);
      for (int64_t i = 0; i <= n; ++i) {
        for (int64_t j = 0; j < m + 2; ++j) padded[i * (m + 2) + j] = i >= 1 && j < m ? x.At({i - 1, j}) : -1.0;
      }
      HostTensor c = RandomTensor(kF32, {m, 3}, 11);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < 3; ++k) {
          for (int64_t j = 0; j < m; ++j) prod[i * 3 + k] += x.At({i, j}) * c.At({j, k});
        }
      }
      ExpectTensorNear(RunCompiledAt(argmax, {ties}, sizes)[0], {n}, amax, 0, 0, "argmax " + where);
      ExpectTensorNear(RunCompiledAt(argmin, {ties}, sizes)[0], {1, m}, amin, 0, 0, "argmin " + where);
      ExpectTensorNear(RunCompiledAt(variance, {x}, sizes)[0], {n}, var, 1e-4, kAbs, "variance " + where);
      ExpectTensorNear(RunCompiledAt(std_all, {x}, sizes)[0], {}, {std::sqrt(total_sq / (n * m))}, 1e-4, kAbs,
                       "std " + where);
      ExpectTensorNear(RunCompiledAt(pad, {x}, sizes)[0], {n + 1, m + 2}, padded, 0, 0, "pad " + where);
      ExpectTensorNear(RunCompiledAt(einsum, {x, c}, sizes)[0], {n, 3}, prod, kRel, kAbs, "einsum " + where);
    }
  }
}

// NCHW conv2d of `x` (n, c, h, w) with `w` (o, c / groups, kh, kw).
std::vector<double> NaiveConv2D(const HostTensor& x, const HostTensor& w, int64_t stride, int64_t pad,
                                int64_t dilation, int64_t groups, int64_t oh, int64_t ow) {
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3], o = w.shape[0];
  int64_t cg = c / groups, og = o / groups;
  std::vector<double> out;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oc = 0; oc < o; ++oc) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xx = 0; xx < ow; ++xx) {
          double sum = 0;
          for (int64_t ic = 0; ic < cg; ++ic) {
            for (int64_t ky = 0; ky < w.shape[2]; ++ky) {
              for (int64_t kx = 0; kx < w.shape[3]; ++kx) {
                int64_t iy = y * stride - pad + ky * dilation, ix = xx * stride - pad + kx * dilation;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                sum += x.At({b, (oc / og) * cg + ic, iy, ix}) * w.At({oc, ic, ky, kx});
              }
            }
          }
          out.push_back(sum);
        }
      }
    }
  }
  return out;
}

TEST(LegalizeNNCodegenTest, Conv2dLayoutsGroupsAtSymbolicSizesAgainstNaive) {
  // stride 2, padding 1, dilation 2, groups 2: 4 -> 6 channels.
  const char* attrs = "strides=[2, 2], padding=[1, 1], dilation=[2, 2], groups=2";
  CompiledOp nchw = LegalizeAndCompile({{"x", F32(R"(("n", 4, "h", "w"))")}, {"wt", F32("(6, 2, 3, 3)")}},
                                       std::string("R.nn.conv2d(x, wt, ") + attrs + ")");
  CompiledOp nhwc = LegalizeAndCompile({{"x", F32(R"(("n", "h", "w", 4))")}, {"wt", F32("(3, 3, 2, 6)")}},
                                       std::string("R.nn.conv2d(x, wt, ") + attrs +
                                           R"(, data_layout="NHWC", kernel_layout="HWIO"))");
  HostTensor w = RandomTensor(kF32, {6, 2, 3, 3}, 5);
  for (int64_t n : {1, 3}) {
    for (auto [h, wd] : std::vector<std::pair<int64_t, int64_t>>{{3, 3}, {5, 8}, {17, 11}}) {
      HostTensor x = RandomTensor(kF32, {n, 4, h, wd}, static_cast<unsigned>(n + h * 3 + wd));
      int64_t oh = (h + 2 - 5) / 2 + 1, ow = (wd + 2 - 5) / 2 + 1;
      std::map<std::string, int64_t> sizes = {{"n", n}, {"h", h}, {"w", wd}};
      std::string where = std::to_string(n) + "x" + std::to_string(h) + "x" + std::to_string(wd);
      HostTensor expected = HostTensor::FromDoubles(kF32, {n, 6, oh, ow}, NaiveConv2D(x, w, 2, 1, 2, 2, oh, ow));
      ExpectAllClose(RunCompiledAt(nchw, {x, w}, sizes)[0], expected, kRel, kAbs, "conv2d NCHW " + where);
      ExpectAllClose(RunCompiledAt(nhwc, {Permuted(x, {0, 2, 3, 1}), Permuted(w, {2, 3, 1, 0})}, sizes)[0],
                     Permuted(expected, {0, 2, 3, 1}), kRel, kAbs, "conv2d NHWC " + where);
    }
  }
}

TEST(LegalizeNNCodegenTest, CausalAttentionAtSymbolicSizesAgainstNaive) {
  Params qkv = {{"q", F32(R"(("b", "s", 2, 4))")}, {"k", F32(R"(("b", "t", 2, 4))")}, {"v", F32(R"(("b", "t", 2, 3))")}};
  for (const std::string mask : {"", "TopLeft", "BottomRight"}) {
    std::string call = mask.empty() ? "R.nn.attention(q, k, v)" : "R.nn.attention(q, k, v, causal_mask=\"" + mask + "\")";
    CompiledOp op = LegalizeAndCompile(qkv, call);
    for (auto [b, s, t] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{{1, 1, 1}, {2, 3, 5}, {1, 9, 17}}) {
      std::map<std::string, int64_t> sizes = {{"b", b}, {"s", s}, {"t", t}};
      std::vector<HostTensor> in = RandomInputs(op, sizes, static_cast<unsigned>(b * 100 + s * 10 + t));
      std::vector<double> expected;
      for (int64_t bi = 0; bi < b; ++bi) {
        for (int64_t i = 0; i < s; ++i) {
          for (int64_t h = 0; h < 2; ++h) {
            int64_t limit = mask == "TopLeft" ? i : (mask == "BottomRight" ? i + t - s : t - 1);
            std::vector<double> scores;
            double max_score = -1e30, sum = 0;
            for (int64_t j = 0; j <= std::min(limit, t - 1); ++j) {
              double dot = 0;
              for (int64_t d = 0; d < 4; ++d) dot += in[0].At({bi, i, h, d}) * in[1].At({bi, j, h, d});
              scores.push_back(dot / 2.0);
              max_score = std::max(max_score, scores.back());
            }
            for (double& score : scores) sum += (score = std::exp(score - max_score));
            for (int64_t e = 0; e < 3; ++e) {
              double acc = 0;
              for (size_t j = 0; j < scores.size(); ++j) acc += scores[j] / sum * in[2].At({bi, static_cast<int64_t>(j), h, e});
              expected.push_back(acc);
            }
          }
        }
      }
      ExpectTensorNear(RunCompiledAt(op, in, sizes)[0], {b, s, 2, 3}, expected, kRel, kAbs,
                       call + " b=" + std::to_string(b) + " s=" + std::to_string(s) + " t=" + std::to_string(t));
    }
  }
}

// ---------------------------------------------------------------- interpreter

// The compiled kernel and the interpreter agree on random inputs at every
// size map in `size_grid`.
void CheckCompiledMatchesInterpreter(const Params& params, const std::string& call,
                                     const std::vector<std::map<std::string, int64_t>>& size_grid,
                                     double rel = kRel, double abs_tol = kAbs) {
  SCOPED_TRACE(call);
  CompiledOp op = LegalizeAndCompile(params, call);
  ASSERT_TRUE(op.op.func.defined());
  unsigned seed = 1;
  for (const auto& sizes : size_grid) {
    std::string where;
    for (const auto& [name, value] : sizes) where += name + "=" + std::to_string(value) + " ";
    std::vector<HostTensor> inputs = RandomInputs(op, sizes, seed++);
    std::vector<HostTensor> want = RunLegalizedMulti(op.op, inputs, sizes);
    std::vector<HostTensor> got = RunCompiledAt(op, inputs, sizes);
    for (size_t i = 0; i < want.size(); ++i) ExpectAllClose(got[i], want[i], rel, abs_tol, call + " " + where);
  }
}

std::vector<std::map<std::string, int64_t>> ImageSizes() {
  return {{{"n", 1}, {"c", 1}, {"h", 3}, {"w", 3}}, {{"n", 2}, {"c", 3}, {"h", 7}, {"w", 5}},
          {{"n", 1}, {"c", 5}, {"h", 19}, {"w", 34}}};
}

TEST(LegalizeNNCodegenTest, ImageOpsAtSymbolicSizesMatchInterpreter) {
  Params x4 = {{"x", F32(kX4)}};
  CheckCompiledMatchesInterpreter(x4, "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])",
                                  ImageSizes(), 0, 0);
  CheckCompiledMatchesInterpreter(x4, "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)",
                                  ImageSizes(), 0, 0);
  CheckCompiledMatchesInterpreter(x4, "R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 1], padding=[1, 1])",
                                  ImageSizes());
  CheckCompiledMatchesInterpreter(
      x4, "R.nn.avg_pool2d(x, pool_size=[2, 3], strides=[1, 2], padding=[1, 0, 0, 1], count_include_pad=True)",
      ImageSizes());
  CheckCompiledMatchesInterpreter(x4, "R.nn.adaptive_avg_pool2d(x, output_size=[3, 2])", ImageSizes());
  CheckCompiledMatchesInterpreter(x4, "R.image.resize2d(x, R.shape([7, 3]))", ImageSizes());
  CheckCompiledMatchesInterpreter(
      x4, R"(R.image.resize2d(x, R.shape([5, 9]), coordinate_transformation_mode="align_corners"))", ImageSizes());
  CheckCompiledMatchesInterpreter(
      x4,
      R"(R.image.resize2d(x, R.shape([8, 10]), method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor"))",
      ImageSizes(), 0, 0);
  CheckCompiledMatchesInterpreter(
      x4, R"(R.image.resize2d(x, R.shape([6, 4]), method="nearest_neighbor", coordinate_transformation_mode="half_pixel"))",
      ImageSizes(), 0, 0);
  CheckCompiledMatchesInterpreter(x4, R"(R.nn.pad(x, pad_width=[0, 0, 1, 0, 2, 2, 0, 1], pad_mode="edge"))",
                                  ImageSizes(), 0, 0);
  CheckCompiledMatchesInterpreter({{"x", F32(kX4)}, {"wt", F32(R"(("c", 4, 3, 3))")}},
                                  "R.nn.conv2d_transpose(x, wt, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1])",
                                  ImageSizes());
  CheckCompiledMatchesInterpreter({{"x", F32(R"(("n", 3, "l"))")}, {"wt", F32("(4, 3, 3)")}},
                                  "R.nn.conv1d(x, wt, strides=[2], padding=[1], dilation=[2])",
                                  {{{"n", 1}, {"l", 5}}, {{"n", 3}, {"l", 8}}, {{"n", 2}, {"l", 41}}});
  CheckCompiledMatchesInterpreter(
      {{"x", F32(R"(("n", 6, "h", "w"))")}, {"g", F32("(6,)")}, {"bt", F32("(6,)")}},
      "R.nn.group_norm(x, g, bt, num_groups=3, channel_axis=1, axes=[2, 3])",
      {{{"n", 1}, {"h", 1}, {"w", 1}}, {{"n", 3}, {"h", 5}, {"w", 3}}, {{"n", 2}, {"h", 16}, {"w", 9}}}, 1e-4, 1e-4);
}

// Regression: an edge pad reads through clamped indices, which LLVM cannot
// vectorize as the schedule asks; it used to print "loop not vectorized"
// warnings to stderr on every compile (ten for this one kernel). The loop
// stays scalar and correct (checked above); the build must be quiet.
TEST(LegalizeNNCodegenTest, UnvectorizableScheduledLoopCompilesQuietly) {
  ::testing::internal::CaptureStderr();
  CompiledOp op = LegalizeAndCompile({{"x", F32(kX2)}}, R"(R.nn.pad(x, pad_width=[0, 0, 0, 1], pad_mode="edge"))");
  std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  HostTensor x = RandomTensor(kF32, {3, 37}, 2);
  std::vector<double> expected;
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 38; ++j) expected.push_back(x.At({i, std::min<int64_t>(j, 36)}));
  }
  ExpectTensorNear(RunCompiledAt(op, {x}, {{"n", 3}, {"m", 37}})[0], {3, 38}, expected, 0, 0, "edge pad");
}

}  // namespace
}  // namespace rlx::op_test
