// The ONNX quantization converters (ops_composite.cc): QuantizeLinear with a
// per-axis scale and int8 zero point (halves round to even, values
// saturate), DequantizeLinear, and DynamicQuantizeLinear's three outputs,
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

}  // namespace
}  // namespace rlx::frontend
