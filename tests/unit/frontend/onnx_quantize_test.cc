// The ONNX quantization converters (ops_composite.cc): QuantizeLinear with a
// per-axis scale and int8 zero point (halves round to even, values
// saturate), DequantizeLinear, DynamicQuantizeLinear's three outputs, and
// the int32 MatMulInteger / ConvInteger on zero-point-shifted operands,
// imported with a symbolic dim, compiled with the default pipeline and run
// on the VM against C++ references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
using Builder = testing::OnnxModelBuilder;

rt::Value RunModel(const Builder& builder, const std::string& stem, const std::vector<rt::NDArray>& inputs) {
  ir::IRModule mod = ImportOnnx(builder.Write(stem));
  codegen::VMCompiled compiled = codegen::CompileForVM(transform::DefaultPipeline()(mod));
  rt::vm::VirtualMachine vm(compiled.exec, compiled.library);
  return vm.Invoke("main", std::vector<rt::Value>(inputs.begin(), inputs.end()));
}

void AddInt8Initializer(Builder& b, const std::string& name, const std::vector<int32_t>& values) {
  onnx::TensorProto* t = b.model().mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT8);
  t->add_dims(static_cast<int64_t>(values.size()));
  for (int32_t v : values) t->add_int32_data(v);
}

// x (n, 2): channel c has scale s[c] and zero point z[c]; then dequantized.
TEST(OnnxQuantizeTest, PerAxisQuantizeAndDequantize) {
  Builder b(13);
  b.Input("x", {std::string("n"), int64_t{2}});
  b.Initializer("scale", {2}, {0.5f, 2.0f});
  AddInt8Initializer(b, "zero", {3, -1});
  b.Node("QuantizeLinear", {"x", "scale", "zero"}, {"q"});
  b.Node("DequantizeLinear", {"q", "scale", "zero"}, {"d"});
  b.Output("q", onnx::TensorProto::INT8);
  b.Output("d");
  const float scale[2] = {0.5f, 2.0f};
  const int zero[2] = {3, -1};
  for (int64_t n : {1, 4}) {
    std::vector<float> x;
    for (int64_t i = 0; i < n * 2; ++i) x.push_back(static_cast<float>(i) * 1.25f - 2.0f + (i == 3 ? 300.0f : 0.0f));
    rt::Value out = RunModel(b, "quantize_axis", {rt::NDArray::FromVector<float>({n, 2}, x)});
    std::vector<int8_t> q = out.AsArray()[0].AsNDArray().ToVector<int8_t>();
    std::vector<float> d = out.AsArray()[1].AsNDArray().ToVector<float>();
    for (int64_t i = 0; i < n * 2; ++i) {
      int c = static_cast<int>(i % 2);
      double rounded = std::nearbyint(x[i] / scale[c]);  // the default rounding mode: halves to even
      int expected = static_cast<int>(std::clamp(rounded + zero[c], -128.0, 127.0));
      EXPECT_EQ(q[i], expected) << "element " << i << " of x = " << x[i];
      EXPECT_FLOAT_EQ(d[i], static_cast<float>(expected - zero[c]) * scale[c]) << "element " << i;
    }
  }
}

TEST(OnnxQuantizeTest, DynamicQuantizeLinear) {
  Builder b(11);
  b.Input("x", {std::string("n")});
  b.Node("DynamicQuantizeLinear", {"x"}, {"y", "scale", "zero"});
  b.Output("y", onnx::TensorProto::UINT8);
  b.Output("scale");
  b.Output("zero", onnx::TensorProto::UINT8);
  std::vector<float> x = {-1.0f, 0.5f, 2.0f, 1.0f, 0.25f};
  rt::Value out = RunModel(b, "dynamic_quantize", {rt::NDArray::FromVector<float>({5}, x)});
  const auto& fields = out.AsArray();
  ASSERT_EQ(fields.size(), 3u);
  float scale = 3.0f / 255.0f;  // range [-1, 2]
  double zero = std::nearbyint(1.0 / scale);
  EXPECT_FLOAT_EQ(fields[1].AsNDArray().ToVector<float>()[0], scale);
  EXPECT_EQ(fields[2].AsNDArray().ToVector<uint8_t>()[0], static_cast<uint8_t>(zero));
  std::vector<uint8_t> y = fields[0].AsNDArray().ToVector<uint8_t>();
  for (size_t i = 0; i < x.size(); ++i) {
    double expected = std::clamp(std::nearbyint(x[i] / scale) + zero, 0.0, 255.0);
    EXPECT_EQ(y[i], static_cast<uint8_t>(expected)) << "element " << i;
  }
}


void AddUInt8Initializer(Builder& b, const std::string& name, std::vector<int64_t> dims,
                         const std::vector<int32_t>& values) {
  onnx::TensorProto* t = b.model().mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::UINT8);
  for (int64_t d : dims) t->add_dims(d);
  for (int32_t v : values) t->add_int32_data(v);
}

// A (n, 3) uint8 with a per-row zero point, B (3, 2) uint8 with a per-column
// zero point: int32 (A - a0) @ (B - b0).
TEST(OnnxQuantizeTest, MatMulIntegerPerRowAndColumnZeroPoints) {
  Builder b(10);
  b.Input("a", {int64_t{2}, int64_t{3}}, onnx::TensorProto::UINT8);
  AddUInt8Initializer(b, "b", {3, 2}, {1, 200, 3, 4, 255, 6});
  AddUInt8Initializer(b, "a0", {2}, {10, 0});
  AddUInt8Initializer(b, "b0", {2}, {1, 100});
  b.Node("MatMulInteger", {"a", "b", "a0", "b0"}, {"y"});
  b.Output("y", onnx::TensorProto::INT32);
  std::vector<uint8_t> a = {12, 250, 0, 7, 9, 30};
  rt::Value out = RunModel(b, "matmul_integer", {rt::NDArray::FromVector<uint8_t>({2, 3}, a)});
  const int bm[3][2] = {{1, 200}, {3, 4}, {255, 6}}, a0[2] = {10, 0}, b0[2] = {1, 100};
  std::vector<int32_t> expected;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      int sum = 0;
      for (int k = 0; k < 3; ++k) sum += (a[i * 3 + k] - a0[i]) * (bm[k][j] - b0[j]);
      expected.push_back(sum);
    }
  }
  EXPECT_EQ(out.AsNDArray().ToVector<int32_t>(), expected);
}

// x (1, 1, n, n) uint8 with zero point 3, w (2, 1, 2, 2) with per-channel
// zero points, padding 1: int32 convolution of the shifted values (padding
// contributes 0).
TEST(OnnxQuantizeTest, ConvIntegerWithPaddingAndChannelZeroPoints) {
  Builder b(10);
  b.Input("x", {int64_t{1}, int64_t{1}, std::string("n"), std::string("n")}, onnx::TensorProto::UINT8);
  AddUInt8Initializer(b, "w", {2, 1, 2, 2}, {1, 2, 3, 4, 9, 8, 7, 6});
  AddUInt8Initializer(b, "x0", {}, {3});
  AddUInt8Initializer(b, "w0", {2}, {0, 5});
  auto* node = b.Node("ConvInteger", {"x", "w", "x0", "w0"}, {"y"});
  Builder::AttrInts(node, "pads", {1, 1, 1, 1});
  b.Output("y", onnx::TensorProto::INT32);
  const int w[2][2][2] = {{{1, 2}, {3, 4}}, {{9, 8}, {7, 6}}}, w0[2] = {0, 5};
  for (int64_t n : {1, 3}) {
    std::vector<uint8_t> x;
    for (int64_t i = 0; i < n * n; ++i) x.push_back(static_cast<uint8_t>(5 * i + 1));
    rt::Value out = RunModel(b, "conv_integer", {rt::NDArray::FromVector<uint8_t>({1, 1, n, n}, x)});
    std::vector<int32_t> expected;
    for (int c = 0; c < 2; ++c) {
      for (int64_t r = 0; r < n + 1; ++r) {
        for (int64_t q = 0; q < n + 1; ++q) {
          int sum = 0;
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
              int64_t y = r - 1 + i, z = q - 1 + j;
              if (y < 0 || y >= n || z < 0 || z >= n) continue;
              sum += (x[static_cast<size_t>(y * n + z)] - 3) * (w[c][i][j] - w0[c]);
            }
          }
          expected.push_back(sum);
        }
      }
    }
    EXPECT_EQ(out.AsNDArray().ToVector<int32_t>(), expected) << "n=" << n;
  }
}

}  // namespace
}  // namespace rlx::frontend
