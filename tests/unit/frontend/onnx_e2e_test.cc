// ONNX models end to end: import -> default pipeline -> VM code generation
// with JIT-compiled kernels -> run, against naive C++ references at several
// values of each symbolic dimension.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "onnx_compiled_model.h"
#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using testing::OnnxModelBuilder;
using Builder = OnnxModelBuilder;

using testing::CompiledModel;

std::vector<float> Random(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> values(n);
  for (float& v : values) v = dist(rng);
  return values;
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected, float tolerance = 1e-4f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance * (1.0f + std::fabs(expected[i]))) << "at " << i;
  }
}

// Gemm(transB) + Relu + Softmax on a dynamic batch.
TEST(OnnxEndToEndTest, MlpWithDynamicBatch) {
  Builder b;
  b.Input("x", {std::string("batch"), int64_t{4}});
  std::mt19937 rng(1);
  std::vector<float> w = Random(12, rng), bias = Random(3, rng);
  b.Initializer("w", {3, 4}, w);
  b.Initializer("b", {3}, bias);
  auto* gemm = b.Node("Gemm", {"x", "w", "b"}, {"h"});
  OnnxModelBuilder::AttrInt(gemm, "transB", 1);
  OnnxModelBuilder::AttrFloat(gemm, "alpha", 0.5f);
  b.Node("Relu", {"h"}, {"r"});
  b.Node("Softmax", {"r"}, {"out"});
  b.Output("out");
  CompiledModel model(b, "mlp");
  for (int64_t batch : {1, 3, 8}) {
    std::vector<float> x = Random(static_cast<size_t>(batch * 4), rng);
    std::vector<float> expected;
    for (int64_t i = 0; i < batch; ++i) {
      float row[3], total = 0;
      for (int j = 0; j < 3; ++j) {
        float acc = 0;
        for (int k = 0; k < 4; ++k) acc += x[i * 4 + k] * w[j * 4 + k];
        row[j] = std::max(0.5f * acc + bias[j], 0.0f);
      }
      float mx = std::max({row[0], row[1], row[2]});
      for (float& v : row) total += (v = std::exp(v - mx));
      for (float v : row) expected.push_back(v / total);
    }
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({batch, 4}, x)});
    EXPECT_EQ(out.AsNDArray().shape(), (rt::ShapeTuple{batch, 3}));
    ExpectNear(out.AsNDArray().ToVector<float>(), expected);
  }
}

// The folded Shape -> Gather -> Concat -> Reshape chain, then Expand to a
// shape built from Shape(x) and a constant.
TEST(OnnxEndToEndTest, FoldedReshapeAndExpandAtSeveralSizes) {
  Builder b;
  b.Input("x", {std::string("n"), int64_t{3}, int64_t{2}});
  b.Node("Shape", {"x"}, {"shape"});
  b.ConstInts("zero", {0}, true);
  b.Node("Gather", {"shape", "zero"}, {"n"});
  b.ConstInts("axes", {0});
  b.Node("Unsqueeze", {"n", "axes"}, {"n1"});
  b.ConstInts("minus_one", {-1});
  auto* concat = b.Node("Concat", {"n1", "minus_one"}, {"target"});
  OnnxModelBuilder::AttrInt(concat, "axis", 0);
  b.Node("Reshape", {"x", "target"}, {"flat"});  // (n, 6)
  b.ConstInts("one", {1});
  b.ConstInts("three", {3});
  auto* concat2 = b.Node("Concat", {"n1", "three", "one"}, {"expand_shape"});
  OnnxModelBuilder::AttrInt(concat2, "axis", 0);
  b.ConstInts("two", {2});
  b.Node("Unsqueeze", {"flat", "two"}, {"flat3"});  // (n, 6, 1)
  b.ConstInts("six", {6});
  auto* concat3 = b.Node("Concat", {"n1", "six", "three"}, {"target3"});
  OnnxModelBuilder::AttrInt(concat3, "axis", 0);
  b.Node("Expand", {"flat3", "target3"}, {"out"});  // (n, 6, 3)
  b.Output("out");
  CompiledModel model(b, "reshape_expand");
  std::mt19937 rng(2);
  for (int64_t n : {1, 2, 5}) {
    std::vector<float> x = Random(static_cast<size_t>(n * 6), rng);
    std::vector<float> expected;
    for (float v : x) expected.insert(expected.end(), {v, v, v});
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({n, 3, 2}, x)});
    EXPECT_EQ(out.AsNDArray().shape(), (rt::ShapeTuple{n, 6, 3}));
    ExpectNear(out.AsNDArray().ToVector<float>(), expected);
  }
}

// Reshape to a target computed at run time (with 0 and -1): data-dependent
// dims via tensor_to_shape and match_cast.
TEST(OnnxEndToEndTest, DataDependentReshape) {
  Builder b;
  b.Input("x", {std::string("n"), int64_t{6}});
  b.Input("t", {int64_t{3}}, onnx::TensorProto::INT64);
  b.Node("Reshape", {"x", "t"}, {"y"});
  b.Output("y");
  CompiledModel model(b, "dynamic_reshape_e2e");
  std::mt19937 rng(5);
  for (auto [n, target] : std::vector<std::pair<int64_t, std::vector<int64_t>>>{
           {2, {0, -1, 3}}, {4, {2, 3, -1}}, {1, {3, 2, 1}}}) {
    std::vector<float> x = Random(static_cast<size_t>(n * 6), rng);
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({n, 6}, x),
                               rt::NDArray::FromVector<int64_t>({3}, target)});
    rt::ShapeTuple expected = target;
    if (expected[0] == 0) expected[0] = n;
    int64_t known = 1;
    for (int64_t d : expected) known *= d == -1 ? 1 : d;
    for (int64_t& d : expected) d = d == -1 ? n * 6 / known : d;
    EXPECT_EQ(out.AsNDArray().shape(), expected);
    ExpectNear(out.AsNDArray().ToVector<float>(), x);
  }
}

// A graph output that is a symbolic shape is materialized at run time.
TEST(OnnxEndToEndTest, SymbolicShapeOutputIsMaterialized) {
  Builder b;
  b.Input("x", {std::string("n"), int64_t{3}});
  b.Node("Shape", {"x"}, {"shape"});
  b.Output("shape", onnx::TensorProto::INT64);
  CompiledModel model(b, "shape_out");
  for (int64_t n : {2, 7}) {
    rt::Value out = model.Run({rt::NDArray::Empty({n, 3}, rt::DataType::Float(32))});
    EXPECT_EQ(out.AsNDArray().ToVector<int64_t>(), (std::vector<int64_t>{n, 3}));
  }
}

// Conv (bias, padding) + MaxPool (ceil_mode) + GlobalAveragePool, dynamic batch.
TEST(OnnxEndToEndTest, ConvPoolWithDynamicBatch) {
  Builder b;
  b.Input("x", {std::string("N"), int64_t{2}, int64_t{5}, int64_t{5}});
  std::mt19937 rng(3);
  std::vector<float> w = Random(3 * 2 * 3 * 3, rng), bias = Random(3, rng);
  b.Initializer("w", {3, 2, 3, 3}, w);
  b.Initializer("bias", {3}, bias);
  auto* conv = b.Node("Conv", {"x", "w", "bias"}, {"c"});
  OnnxModelBuilder::AttrInts(conv, "pads", {1, 1, 1, 1});
  auto* pool = b.Node("MaxPool", {"c"}, {"p"});
  OnnxModelBuilder::AttrInts(pool, "kernel_shape", {2, 2});
  OnnxModelBuilder::AttrInts(pool, "strides", {2, 2});
  OnnxModelBuilder::AttrInt(pool, "ceil_mode", 1);
  b.Node("GlobalAveragePool", {"p"}, {"out"});
  b.Output("out");
  CompiledModel model(b, "convpool");
  for (int64_t n : {1, 2}) {
    std::vector<float> x = Random(static_cast<size_t>(n * 2 * 25), rng);
    std::vector<float> expected;
    for (int64_t i = 0; i < n; ++i) {
      for (int o = 0; o < 3; ++o) {
        float conv_out[5][5];
        for (int y = 0; y < 5; ++y) {
          for (int xx = 0; xx < 5; ++xx) {
            float acc = bias[o];
            for (int c = 0; c < 2; ++c) {
              for (int ky = 0; ky < 3; ++ky) {
                for (int kx = 0; kx < 3; ++kx) {
                  int iy = y + ky - 1, ix = xx + kx - 1;
                  if (iy < 0 || iy >= 5 || ix < 0 || ix >= 5) continue;
                  acc += x[((i * 2 + c) * 5 + iy) * 5 + ix] * w[((o * 2 + c) * 3 + ky) * 3 + kx];
                }
              }
            }
            conv_out[y][xx] = acc;
          }
        }
        float sum = 0;
        for (int py = 0; py < 3; ++py) {
          for (int px = 0; px < 3; ++px) {
            float mx = -INFINITY;
            for (int dy = 0; dy < 2; ++dy) {
              for (int dx = 0; dx < 2; ++dx) {
                int y = py * 2 + dy, xx = px * 2 + dx;
                if (y < 5 && xx < 5) mx = std::max(mx, conv_out[y][xx]);
              }
            }
            sum += mx;
          }
        }
        expected.push_back(sum / 9.0f);
      }
    }
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({n, 2, 5, 5}, x)});
    EXPECT_EQ(out.AsNDArray().shape(), (rt::ShapeTuple{n, 3, 1, 1}));
    ExpectNear(out.AsNDArray().ToVector<float>(), expected);
  }
}

// Composite activations (several Relax calls each).
TEST(OnnxEndToEndTest, CompositeActivations) {
  Builder b(14);  // HardSwish exists from opset 14
  b.Input("x", {std::string("n")});
  b.Node("HardSwish", {"x"}, {"hs"});
  auto* leaky = b.Node("LeakyRelu", {"x"}, {"lr"});
  OnnxModelBuilder::AttrFloat(leaky, "alpha", 0.1f);
  b.Node("HardSigmoid", {"x"}, {"hsig"});
  b.Node("Elu", {"x"}, {"elu"});
  b.Node("Softplus", {"x"}, {"sp"});
  b.Output("hs");
  b.Output("lr");
  b.Output("hsig");
  b.Output("elu");
  b.Output("sp");
  CompiledModel model(b, "activations");
  std::mt19937 rng(4);
  for (int64_t n : {1, 9}) {
    std::vector<float> x = Random(static_cast<size_t>(n), rng);
    x[0] = 5.0f;
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({n}, x)});
    const auto& fields = out.AsArray();
    ASSERT_EQ(fields.size(), 5u);
    std::vector<float> hs, lr, hsig, elu, sp;
    for (float v : x) {
      hs.push_back(v * std::min(std::max(v + 3.0f, 0.0f), 6.0f) / 6.0f);
      lr.push_back(v > 0 ? v : 0.1f * v);
      hsig.push_back(std::min(std::max(0.2f * v + 0.5f, 0.0f), 1.0f));
      elu.push_back(v > 0 ? v : std::exp(v) - 1.0f);
      sp.push_back(std::log(std::exp(v) + 1.0f));
    }
    ExpectNear(fields[0].AsNDArray().ToVector<float>(), hs);
    ExpectNear(fields[1].AsNDArray().ToVector<float>(), lr);
    ExpectNear(fields[2].AsNDArray().ToVector<float>(), hsig);
    ExpectNear(fields[3].AsNDArray().ToVector<float>(), elu);
    ExpectNear(fields[4].AsNDArray().ToVector<float>(), sp);
  }
}

// Operands whose symbolic dims ONNX requires equal but the analyzer cannot
// prove equal (h and w here; an FPN's differently computed map sizes in real
// models) are match_cast to the first operand's dims at import time: the
// shapes stay precise (Concat's result is (h, 4), not unknown), equal
// sizes give the right values, and unequal ones are a run-time shape error.
TEST(OnnxEndToEndTest, UnprovableBroadcastAndConcatDimsAreMatchCast) {
  Builder b;
  b.Input("x", {std::string("h"), int64_t{2}});
  b.Input("y", {std::string("w"), int64_t{2}});
  b.Node("Add", {"x", "y"}, {"s"});
  b.Node("Concat", {"s", "y"}, {"out"});
  OnnxModelBuilder::AttrInt(b.model().mutable_graph()->mutable_node(1), "axis", 1);
  b.Output("out");
  ir::IRModule mod = ImportOnnx(b.Write("align_dims"), {});
  EXPECT_EQ(graph::ToString(cast<graph::FunctionNode>(mod->Lookup("main"))->ret_struct_info),
            "Tensor((h, 4), float32)");
  CompiledModel model(b, "align_dims");
  std::mt19937 rng(7);
  for (int64_t n : {1, 5, 64}) {
    std::vector<float> x = Random(static_cast<size_t>(n * 2), rng);
    std::vector<float> y = Random(static_cast<size_t>(n * 2), rng);
    std::vector<float> expected;
    for (size_t row = 0; row < static_cast<size_t>(n); ++row) {
      for (size_t col = 0; col < 2; ++col) expected.push_back(x[row * 2 + col] + y[row * 2 + col]);
      for (size_t col = 0; col < 2; ++col) expected.push_back(y[row * 2 + col]);
    }
    rt::Value out = model.Run({rt::NDArray::FromVector<float>({n, 2}, x), rt::NDArray::FromVector<float>({n, 2}, y)});
    ExpectNear(out.AsNDArray().ToVector<float>(), expected);
  }
  try {
    model.Run({rt::NDArray::FromVector<float>({3, 2}, Random(6, rng)), rt::NDArray::FromVector<float>({4, 2}, Random(8, rng))});
    FAIL() << "expected a shape error for h = 3, w = 4";
  } catch (const rt::RuntimeError& error) {
    EXPECT_NE(std::string(error.what()).find("4"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace rlx::frontend
