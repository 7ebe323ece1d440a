// The ONNX BitShift converter (ops_elementwise.cc): LEFT and RIGHT on
// unsigned integers with broadcasting, imported with a symbolic dim,
// compiled with the default pipeline and run on the VM; a bad direction is
// an import error naming it.
#include <gtest/gtest.h>

#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
using Builder = testing::OnnxModelBuilder;

Builder ShiftModel(const std::string& direction, int elem_type) {
  Builder b(11);
  b.Input("x", {std::string("n"), int64_t{3}}, elem_type);
  b.Input("y", {int64_t{3}}, elem_type);
  auto* node = b.Node("BitShift", {"x", "y"}, {"z"});
  Builder::AttrString(node, "direction", direction);
  b.Output("z", elem_type);
  return b;
}

TEST(OnnxBitShiftTest, LeftAndRightWithBroadcasting) {
  for (const std::string direction : {"LEFT", "RIGHT"}) {
    ir::IRModule mod = ImportOnnx(ShiftModel(direction, onnx::TensorProto::UINT32).Write("bitshift_" + direction));
    codegen::VMCompiled compiled = codegen::CompileForVM(transform::DefaultPipeline()(mod));
    rt::vm::VirtualMachine vm(compiled.exec, compiled.library);
    for (int64_t n : {1, 4}) {
      std::vector<uint32_t> x, expected;
      std::vector<uint32_t> y = {0, 1, 5};
      for (int64_t i = 0; i < n * 3; ++i) {
        x.push_back(static_cast<uint32_t>(1000 + 37 * i));
        uint32_t shift = y[static_cast<size_t>(i % 3)];
        expected.push_back(direction == "LEFT" ? x.back() << shift : x.back() >> shift);
      }
      rt::Value out = vm.Invoke("main", {rt::Value(rt::NDArray::FromVector<uint32_t>({n, 3}, x)),
                                         rt::Value(rt::NDArray::FromVector<uint32_t>({3}, y))});
      EXPECT_EQ(out.AsNDArray().ToVector<uint32_t>(), expected) << direction << " n=" << n;
    }
  }
}

TEST(OnnxBitShiftTest, UnknownDirectionIsAnImportError) {
  try {
    ImportOnnx(ShiftModel("UP", onnx::TensorProto::UINT8).Write("bitshift_up"));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find("direction must be \"LEFT\" or \"RIGHT\", got \"UP\""), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace rlx::frontend
