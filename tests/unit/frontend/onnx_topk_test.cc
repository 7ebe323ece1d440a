// The ONNX TopK converter (ops_manipulate.cc): opset 1 (k attribute) and 11
// (k input, largest), imported with a symbolic row count, compiled with the
// default pipeline and run on the VM; rows with ties check that the lower
// index comes first. k out of range is an import error.
#include <gtest/gtest.h>

#include <memory>

#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/pipeline.h"
#include "rlx/text/printer.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using Builder = testing::OnnxModelBuilder;

struct CompiledModel {
  ir::IRModule imported;
  codegen::VMCompiled compiled;
  std::unique_ptr<rvm::VirtualMachine> vm;

  CompiledModel(const Builder& builder, const std::string& stem) {
    imported = ImportOnnx(builder.Write(stem));
    compiled = codegen::CompileForVM(transform::DefaultPipeline()(imported));
    vm = std::make_unique<rvm::VirtualMachine>(compiled.exec, compiled.library);
  }
  std::vector<rt::NDArray> Run(const rt::NDArray& x) {
    rt::Value out = vm->Invoke("main", {rt::Value(x)});
    std::vector<rt::NDArray> outputs;
    for (const rt::Value& field : out.AsArray()) outputs.push_back(field.AsNDArray());
    return outputs;
  }
};

// x (n, 5) -> TopK(k=2 from a constant, axis=-1, largest as given).
Builder TopKModel(bool largest) {
  Builder b(11);
  b.Input("x", {std::string("n"), int64_t{5}});
  b.InitializerInts("k", {1}, {2});
  auto* node = b.Node("TopK", {"x", "k"}, {"values", "indices"});
  Builder::AttrInt(node, "largest", largest ? 1 : 0);
  b.Output("values");
  b.Output("indices", onnx::TensorProto::INT64);
  return b;
}

TEST(OnnxTopKTest, LargestWithTiesAtSeveralRowCounts) {
  CompiledModel model(TopKModel(true), "topk_largest");
  std::string text = text::PrintModule(model.imported);
  EXPECT_NE(text.find("R.topk(x, k=2, axis=1, ret_type=\"both\", largest=True, dtype=\"int64\")"), std::string::npos)
      << text;
  // Row r: [r, 3, 1, 3, r + 3]; the ties 3, 3 keep index order.
  for (int64_t n : {1, 3, 8}) {
    std::vector<float> x;
    for (int64_t r = 0; r < n; ++r) {
      for (float v : {static_cast<float>(r), 3.0f, 1.0f, 3.0f, static_cast<float>(r + 3)}) x.push_back(v);
    }
    std::vector<rt::NDArray> out = model.Run(rt::NDArray::FromVector<float>({n, 5}, x));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].shape(), (rt::ShapeTuple{n, 2}));
    std::vector<float> values = out[0].ToVector<float>();
    std::vector<int64_t> indices = out[1].ToVector<int64_t>();
    for (int64_t r = 0; r < n; ++r) {
      // r = 0: 3 at 1, 3, 4 (lower indices first); r = 1, 2: r + 3, then the 3
      // at index 1; r >= 3: r + 3, then r at index 0 (ahead of the 3s).
      std::vector<int64_t> want_indices = r == 0 ? std::vector<int64_t>{1, 3}
                                          : r <= 2 ? std::vector<int64_t>{4, 1}
                                                   : std::vector<int64_t>{4, 0};
      std::vector<float> want_values = {x[r * 5 + want_indices[0]], x[r * 5 + want_indices[1]]};
      EXPECT_EQ(indices[r * 2], want_indices[0]) << "n=" << n << " row " << r;
      EXPECT_EQ(indices[r * 2 + 1], want_indices[1]) << "n=" << n << " row " << r;
      EXPECT_EQ(values[r * 2], want_values[0]) << "n=" << n << " row " << r;
      EXPECT_EQ(values[r * 2 + 1], want_values[1]) << "n=" << n << " row " << r;
    }
  }
}

TEST(OnnxTopKTest, SmallestAndOpset1Attribute) {
  CompiledModel smallest(TopKModel(false), "topk_smallest");
  std::vector<rt::NDArray> out = smallest.Run(rt::NDArray::FromVector<float>({2, 5}, {4, -1, 2, -1, 0, 7, 7, 7, 7, 7}));
  EXPECT_EQ(out[0].ToVector<float>(), (std::vector<float>{-1, -1, 7, 7}));
  EXPECT_EQ(out[1].ToVector<int64_t>(), (std::vector<int64_t>{1, 3, 0, 1}));

  Builder b(1);
  b.Input("x", {int64_t{4}, std::string("m")});
  auto* node = b.Node("TopK", {"x"}, {"values", "indices"});
  Builder::AttrInt(node, "k", 3);
  Builder::AttrInt(node, "axis", 0);
  b.Output("values");
  b.Output("indices", onnx::TensorProto::INT64);
  CompiledModel opset1(b, "topk_opset1");
  out = opset1.Run(rt::NDArray::FromVector<float>({4, 2}, {1, 5, 4, 6, 2, 6, 3, 0}));
  EXPECT_EQ(out[0].ToVector<float>(), (std::vector<float>{4, 6, 3, 6, 2, 5}));
  EXPECT_EQ(out[1].ToVector<int64_t>(), (std::vector<int64_t>{1, 1, 3, 2, 2, 0}));
}

TEST(OnnxTopKTest, KLargerThanTheAxisIsAnImportError) {
  Builder b(11);
  b.Input("x", {int64_t{2}, int64_t{3}});
  b.InitializerInts("k", {1}, {4});
  b.Node("TopK", {"x", "k"}, {"values", "indices"});
  b.Output("values");
  b.Output("indices", onnx::TensorProto::INT64);
  try {
    ImportOnnx(b.Write("topk_bad_k"));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find("k = 4 is out of range for an axis of size 3"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace rlx::frontend
