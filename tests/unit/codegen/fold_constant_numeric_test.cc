// FoldConstant keeps results: a module whose constant subgraphs fold
// (evaluated by the TIR interpreter) gives the same outputs, through the
// default pipeline and the VM, as the same module compiled without folding
// (where the constant subgraphs run as compiled kernels), for several values
// of the symbolic batch.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/op/op.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"
#include "rlx/transform/pipeline.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;

constexpr const char* kModule = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            c0 = R.const([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")
            c1 = R.const([0.5, -1.0, 2.0], "float32")
            c0_t = R.permute_dims(c0, axes=[1, 0])
            w = R.matmul(c0_t, c0)
            w_scaled = R.multiply(w, R.const(0.125, "float32"))
            b = R.exp(c1)
            y = R.matmul(x, w_scaled)
            z = R.add(y, b)
            gv = R.nn.relu(z)
            R.output(gv)
        return gv
)";

class FoldConstantNumericTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

std::vector<float> RunMain(rvm::VirtualMachine& vm, const std::vector<float>& x, int64_t n) {
  rt::Value result = vm.Invoke("main", {rt::Value(rt::NDArray::FromVector<float>({n, 3}, x))});
  const rt::NDArray& out = result.AsNDArray();
  EXPECT_EQ(out.shape(), (rt::ShapeTuple{n, 3}));
  return out.ToVector<float>();
}

TEST_F(FoldConstantNumericTest, FoldedModuleMatchesUnfoldedThroughTheVM) {
  ir::IRModule mod = text::ParseModuleText(kModule);
  ir::IRModule folded = transform::FoldConstant()(mod);
  std::string folded_text = text::PrintModule(folded);
  // The weight computation is gone: only the input-dependent part remains.
  EXPECT_EQ(folded_text.find("R.permute_dims"), std::string::npos) << folded_text;
  EXPECT_EQ(folded_text.find("R.exp"), std::string::npos) << folded_text;
  EXPECT_NE(folded_text.find("R.matmul(x"), std::string::npos) << folded_text;

  transform::PassContext no_folding;
  no_folding.disabled_passes = {"fold-constant", "eliminate-common-subexpr"};
  VMCompiled reference = CompileForVM(transform::DefaultPipeline()(mod, no_folding));
  VMCompiled optimized = CompileForVM(transform::DefaultPipeline()(folded));
  rvm::VirtualMachine reference_vm(reference.exec, reference.library);
  rvm::VirtualMachine optimized_vm(optimized.exec, optimized.library);

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  for (int64_t n : {1, 2, 7, 33}) {
    std::vector<float> x(static_cast<size_t>(n * 3));
    for (float& v : x) v = dist(rng);
    std::vector<float> expected = RunMain(reference_vm, x, n);
    std::vector<float> actual = RunMain(optimized_vm, x, n);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_NEAR(actual[i], expected[i], 1e-5f * (1 + std::fabs(expected[i]))) << "n=" << n << " element " << i;
    }
  }
}

}  // namespace
}  // namespace rlx::codegen
