// The ONNX converters composed from existing Relax operators (ops_composite.cc):
// SoftmaxCrossEntropyLoss / NegativeLogLikelihoodLoss, Hardmax, OneHot,
// IsNaN / IsInf, the inverse trigonometric functions, GatherND / ScatterND,
// EyeLike, the window functions and Mod with fmod=1, imported, compiled
// with the default pipeline and run on the VM against C++ references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "onnx_compiled_model.h"
#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using Builder = testing::OnnxModelBuilder;

using testing::CompiledModel;

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], 1e-5f * (1.0f + std::fabs(expected[i]))) << "at " << i;
  }
}

// scores (n, 3, 2), labels (n, 2), weights (3); mean reduction ignoring
// label 1; the second output is log_softmax over the class axis.
TEST(OnnxCompositeOpsTest, SoftmaxCrossEntropyWithWeightsAndIgnoreIndex) {
  Builder b;
  b.Input("scores", {std::string("n"), int64_t{3}, int64_t{2}});
  b.Input("labels", {std::string("n"), int64_t{2}}, onnx::TensorProto::INT64);
  b.Initializer("weights", {3}, {0.5f, 2.0f, 1.5f});
  auto* sce = b.Node("SoftmaxCrossEntropyLoss", {"scores", "labels", "weights"}, {"loss", "log_prob"});
  Builder::AttrInt(sce, "ignore_index", 1);
  b.Output("loss");
  b.Output("log_prob");
  CompiledModel model(b, "sce");
  const float weights[3] = {0.5f, 2.0f, 1.5f};
  std::vector<float> scores{0.1f, -1.0f, 2.0f, 0.5f, -0.3f, 1.2f, 1.5f, 0.0f, -2.0f, 0.7f, 0.2f, 0.4f};
  std::vector<int64_t> labels{0, 1, 2, 2};
  const int64_t n = 2;
  std::vector<float> log_prob(12);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t d = 0; d < 2; ++d) {
      float total = 0;
      for (int64_t c = 0; c < 3; ++c) total += std::exp(scores[(i * 3 + c) * 2 + d]);
      for (int64_t c = 0; c < 3; ++c) log_prob[(i * 3 + c) * 2 + d] = scores[(i * 3 + c) * 2 + d] - std::log(total);
    }
  }
  float loss_sum = 0, weight_sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t d = 0; d < 2; ++d) {
      int64_t label = labels[i * 2 + d];
      if (label == 1) continue;
      loss_sum -= log_prob[(i * 3 + label) * 2 + d] * weights[label];
      weight_sum += weights[label];
    }
  }
  rt::Value out = model.Run({rt::NDArray::FromVector<float>({n, 3, 2}, scores),
                             rt::NDArray::FromVector<int64_t>({n, 2}, labels)});
  const auto& fields = out.AsArray();
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0].AsNDArray().shape(), rt::ShapeTuple{});
  ExpectNear(fields[0].AsNDArray().ToVector<float>(), {loss_sum / weight_sum});
  ExpectNear(fields[1].AsNDArray().ToVector<float>(), log_prob);
}

TEST(OnnxCompositeOpsTest, NegativeLogLikelihoodNoneAndFloatTargetIsAnError) {
  Builder b;
  b.Input("input", {int64_t{2}, int64_t{3}});
  b.Input("target", {int64_t{2}}, onnx::TensorProto::INT64);
  auto* nll = b.Node("NegativeLogLikelihoodLoss", {"input", "target"}, {"loss"});
  Builder::AttrString(nll, "reduction", "none");
  b.Output("loss");
  CompiledModel model(b, "nll_none");
  rt::Value out = model.Run({rt::NDArray::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
                             rt::NDArray::FromVector<int64_t>({2}, {2, 0})});
  ExpectNear(out.AsNDArray().ToVector<float>(), {-3.0f, -4.0f});

  Builder bad;
  bad.Input("input", {int64_t{2}, int64_t{3}});
  bad.Input("target", {int64_t{2}});
  bad.Node("NegativeLogLikelihoodLoss", {"input", "target"}, {"loss"});
  bad.Output("loss");
  EXPECT_THROW(ImportOnnx(bad.Write("nll_float_target")), CompileError);
}

TEST(OnnxCompositeOpsTest, HardmaxOneHotIsNaNIsInfAsin) {
  Builder b;
  b.Input("x", {int64_t{2}, int64_t{3}});
  b.Input("indices", {int64_t{3}}, onnx::TensorProto::INT64);
  b.Input("y", {int64_t{2}, int64_t{3}});
  auto* hardmax = b.Node("Hardmax", {"y"}, {"hard"});
  Builder::AttrInt(hardmax, "axis", 0);
  b.ConstInts("depth", {4}, true);
  b.Initializer("values", {2}, {-1.0f, 5.0f});
  auto* one_hot = b.Node("OneHot", {"indices", "depth", "values"}, {"hot"});
  Builder::AttrInt(one_hot, "axis", 0);
  b.Node("IsNaN", {"x"}, {"nan"});
  b.Node("IsInf", {"x"}, {"inf"});
  auto* cast_nan = b.Node("Cast", {"nan"}, {"nan_f"});
  Builder::AttrInt(cast_nan, "to", onnx::TensorProto::FLOAT);
  auto* cast_inf = b.Node("Cast", {"inf"}, {"inf_f"});
  Builder::AttrInt(cast_inf, "to", onnx::TensorProto::FLOAT);
  b.Node("Asin", {"hard"}, {"asin"});
  b.Output("hot");
  b.Output("nan_f");
  b.Output("inf_f");
  b.Output("asin");
  CompiledModel model(b, "hardmax_onehot");
  float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  rt::Value out = model.Run({rt::NDArray::FromVector<float>({2, 3}, {1.0f, nan, -inf, 2.0f, inf, 0.5f}),
                             rt::NDArray::FromVector<int64_t>({3}, {0, -1, 2}),
                             rt::NDArray::FromVector<float>({2, 3}, {1.0f, 3.0f, -1.0f, 2.0f, 0.0f, 0.5f})});
  const auto& fields = out.AsArray();
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].AsNDArray().shape(), (rt::ShapeTuple{4, 3}));
  ExpectNear(fields[0].AsNDArray().ToVector<float>(), {5, -1, -1, -1, -1, -1, -1, -1, 5, -1, 5, -1});
  ExpectNear(fields[1].AsNDArray().ToVector<float>(), {0, 1, 0, 0, 0, 0});
  ExpectNear(fields[2].AsNDArray().ToVector<float>(), {0, 0, 1, 0, 1, 0});
  // Hardmax along axis 0 marks rows 1, 0, 1; asin(1) = pi/2, asin(0) = 0.
  float half_pi = static_cast<float>(M_PI / 2);
  ExpectNear(fields[3].AsNDArray().ToVector<float>(), {0, half_pi, 0, half_pi, 0, half_pi});
}

// data (n, 2, 2) with a symbolic leading dim; index rows of length 2 (one
// negative) for GatherND; ScatterND adds rows of updates to the same data
// (flattened to n * 2 rows: scatter_elements gets n as a tir_var); fmod
// keeps the dividend's sign.
TEST(OnnxCompositeOpsTest, GatherScatterNDEyeLikeWindowFmod) {
  Builder b(16);
  b.Input("data", {std::string("n"), int64_t{2}, int64_t{2}});
  b.Input("indices", {int64_t{2}, int64_t{2}}, onnx::TensorProto::INT64);
  b.Input("updates", {int64_t{2}, int64_t{2}});
  b.Input("a", {int64_t{4}});
  b.Input("m", {int64_t{4}});
  b.Node("GatherND", {"data", "indices"}, {"gathered"});
  auto* scatter = b.Node("ScatterND", {"data", "indices", "updates"}, {"scattered"});
  Builder::AttrString(scatter, "reduction", "add");
  b.Node("Shape", {"updates"}, {"ushape"});
  b.Node("ConstantOfShape", {"ushape"}, {"square"});
  auto* eye = b.Node("EyeLike", {"square"}, {"eye"});
  Builder::AttrInt(eye, "k", 1);
  auto* fmod = b.Node("Mod", {"a", "m"}, {"remainder"});
  Builder::AttrInt(fmod, "fmod", 1);
  b.Output("gathered");
  b.Output("scattered");
  b.Output("eye");
  b.Output("remainder");
  CompiledModel model(b, "nd_eye_fmod");
  std::vector<float> data{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};  // n = 3
  rt::Value out = model.Run({rt::NDArray::FromVector<float>({3, 2, 2}, data),
                             rt::NDArray::FromVector<int64_t>({2, 2}, {2, 0, -3, 1}),
                             rt::NDArray::FromVector<float>({2, 2}, {100, 200, 300, 400}),
                             rt::NDArray::FromVector<float>({4}, {-4.0f, 4.0f, 5.5f, -7.0f}),
                             rt::NDArray::FromVector<float>({4}, {3.0f, -3.0f, 2.0f, -2.0f})});
  const auto& fields = out.AsArray();
  ASSERT_EQ(fields.size(), 4u);
  // Rows data[2, 0] and data[0, 1].
  ExpectNear(fields[0].AsNDArray().ToVector<float>(), {8, 9, 2, 3});
  ExpectNear(fields[1].AsNDArray().ToVector<float>(), {0, 1, 302, 403, 4, 5, 6, 7, 108, 209, 10, 11});
  ExpectNear(fields[2].AsNDArray().ToVector<float>(), {0, 1, 0, 0});
  ExpectNear(fields[3].AsNDArray().ToVector<float>(), {-1.0f, 1.0f, 1.5f, -1.0f});
}

TEST(OnnxCompositeOpsTest, HannWindowIsFoldedAtImportTime) {
  Builder b(17);
  b.ConstInts("size", {4}, true);
  b.Node("HannWindow", {"size"}, {"window"});
  b.Output("window");
  CompiledModel model(b, "hann");
  rt::Value out = model.Run({});
  ExpectNear(out.AsNDArray().ToVector<float>(), {0.0f, 0.5f, 1.0f, 0.5f});
}

}  // namespace
}  // namespace rlx::frontend

namespace rlx::frontend {
namespace {

// GatherND with batch_dims=1: data (b, 3, 2), indices (b, 2, 1) pick rows of
// each batch's own (3, 2) slice (a negative index counts from the end).
TEST(OnnxCompositeOpsTest, GatherNDWithBatchDims) {
  Builder b(13);
  b.Input("data", {std::string("b"), int64_t{3}, int64_t{2}});
  b.Input("indices", {std::string("b"), int64_t{2}, int64_t{1}}, onnx::TensorProto::INT64);
  auto* node = b.Node("GatherND", {"data", "indices"}, {"out"});
  Builder::AttrInt(node, "batch_dims", 1);
  b.Output("out");
  CompiledModel model(b, "gathernd_batch");
  for (int64_t batches : {1, 3}) {
    std::vector<float> data;
    for (int64_t i = 0; i < batches * 6; ++i) data.push_back(static_cast<float>(i));
    std::vector<int64_t> indices;
    std::vector<float> expected;
    for (int64_t n = 0; n < batches; ++n) {
      for (int64_t row : {(n + 1) % 3, int64_t{-1}}) {
        indices.push_back(row);
        int64_t source = row < 0 ? row + 3 : row;
        for (int64_t c = 0; c < 2; ++c) expected.push_back(data[(n * 3 + source) * 2 + c]);
      }
    }
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({batches, 3, 2}, data),
                               rt::NDArray::FromVector<int64_t>({batches, 2, 1}, indices)});
    EXPECT_EQ(out.AsNDArray().shape(), (rt::ShapeTuple{batches, 2, 2}));
    ExpectNear(out.AsNDArray().ToVector<float>(), expected);
  }
}


// ReverseSequence with batch_axis 0, time_axis 1: x (b, t, 2) with a
// symbolic time length; each batch row reverses its first len elements.
TEST(OnnxCompositeOpsTest, ReverseSequenceBatchMajor) {
  Builder b(10);
  b.Input("x", {int64_t{2}, std::string("t"), int64_t{2}});
  b.Input("lens", {int64_t{2}}, onnx::TensorProto::INT64);
  auto* node = b.Node("ReverseSequence", {"x", "lens"}, {"y"});
  Builder::AttrInt(node, "batch_axis", 0);
  Builder::AttrInt(node, "time_axis", 1);
  b.Output("y");
  CompiledModel model(b, "reverse_sequence");
  for (int64_t t : {1, 5}) {
    std::vector<float> x;
    for (int64_t i = 0; i < 2 * t * 2; ++i) x.push_back(static_cast<float>(i));
    std::vector<int64_t> lens = {t, std::min<int64_t>(2, t)};
    std::vector<float> expected;
    for (int64_t n = 0; n < 2; ++n) {
      for (int64_t i = 0; i < t; ++i) {
        int64_t source = i < lens[n] ? lens[n] - 1 - i : i;
        for (int64_t c = 0; c < 2; ++c) expected.push_back(x[(n * t + source) * 2 + c]);
      }
    }
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({2, t, 2}, x), rt::NDArray::FromVector<int64_t>({2}, lens)});
    ExpectNear(out.AsNDArray().ToVector<float>(), expected);
  }
}

// PRelu's 1-D slope of C values: per channel (axis 1) at opset 6 and, from
// opset 7, when the last axis cannot take it; numpy broadcasting (along the
// last axis) when it can.
std::vector<float> RunPRelu(int opset, std::vector<int64_t> shape, const std::vector<float>& x,
                            const std::vector<float>& slope) {
  Builder b(opset);
  std::vector<testing::Dim> dims(shape.begin(), shape.end());
  b.Input("x", dims);
  b.Initializer("slope", {static_cast<int64_t>(slope.size())}, slope);
  b.Node("PRelu", {"x", "slope"}, {"y"});
  b.Output("y");
  CompiledModel model(b, "prelu_" + std::to_string(opset));
  return model.Run({rt::NDArray::FromVector<float>(shape, x)}).AsNDArray().ToVector<float>();
}

TEST(OnnxCompositeOpsTest, PReluSlopeOfChannelsAppliesPerChannel) {
  // x (1, 3, 2): every value -1; slope per channel 1, 2, 3.
  std::vector<float> x(6, -1.0f);
  std::vector<float> per_channel = {-1, -1, -2, -2, -3, -3};
  ExpectNear(RunPRelu(6, {1, 3, 2}, x, {1, 2, 3}), per_channel);
  ExpectNear(RunPRelu(9, {1, 3, 2}, x, {1, 2, 3}), per_channel);
  // x (1, 3, 3) from opset 7: the slope broadcasts along the last axis.
  std::vector<float> x9(9, -1.0f);
  ExpectNear(RunPRelu(9, {1, 3, 3}, x9, {1, 2, 3}), {-1, -2, -3, -1, -2, -3, -1, -2, -3});
  ExpectNear(RunPRelu(6, {1, 3, 3}, x9, {1, 2, 3}), {-1, -1, -1, -2, -2, -2, -3, -3, -3});
}

}  // namespace
}  // namespace rlx::frontend
