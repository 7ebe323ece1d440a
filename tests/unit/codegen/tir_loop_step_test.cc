// Loops with a step (tir::ForNode::step) written in TVMScript: every loop
// kind with a constant step, a symbolic start and a symbolic step, run by
// the TIR interpreter and compiled through LLVM (JIT, default CPU schedule),
// against a C++ reference that marks the visited indices.
#include <gtest/gtest.h>

#include <vector>

#include "jit_test_util.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/tir/interpreter.h"

namespace rlx::codegen_test {
namespace {

const char* const kModule = R"(
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def marks(B: T.Buffer((5, 64), "int32"), start: T.int32, step: T.int32):
        for r, j in T.grid(5, 64):
            B[r, j] = 0
        for i in T.serial(start, 64, step=2):
            B[0, i] = B[0, i] + 1
        for i in T.unroll(0, 16, step=4):
            B[1, i] = B[1, i] + 1
        for i in T.vectorized(start, 64, step=3):
            B[2, i] = B[2, i] + 1
        for i in T.parallel(1, 64, step=5):
            B[3, i] = B[3, i] + 1
        for i in range(start, 61, step):
            B[4, i] = B[4, i] + 1
)";

TEST(TIRLoopStepTest, EveryLoopKindVisitsTheSteppedIndicesOnce) {
  op::RegisterAllOps();
  tir::PrimFunc func = cast<tir::PrimFuncNode>(text::ParseModuleText(kModule)->Lookup("marks"));
  for (auto [start, step] : {std::pair<int64_t, int64_t>{0, 1}, {3, 7}, {10, 64}, {63, 2}}) {
    std::vector<std::vector<int64_t>> expected(5, std::vector<int64_t>(64, 0));
    for (int64_t i = start; i < 64; i += 2) ++expected[0][i];
    for (int64_t i = 0; i < 16; i += 4) ++expected[1][i];
    for (int64_t i = start; i < 64; i += 3) ++expected[2][i];
    for (int64_t i = 1; i < 64; i += 5) ++expected[3][i];
    for (int64_t i = start; i < 61; i += step) ++expected[4][i];

    tir::HostTensor b_interp(DataType::Int(32), {5, 64});
    tir::RunPrimFunc(func, {&b_interp, start, step});
    runtime::NDArray b_jit = ToNDArray(tir::HostTensor(DataType::Int(32), {5, 64}));
    Compile(func).GetRequiredFunction("kernel")(b_jit, runtime::Value(start), runtime::Value(step));
    tir::HostTensor b_compiled = ToHostTensor(b_jit, DataType::Int(32));
    for (int64_t r = 0; r < 5; ++r) {
      for (int64_t i = 0; i < 64; ++i) {
        EXPECT_EQ(b_interp.GetInt(r * 64 + i), expected[r][i]) << "interpreter, start " << start << " loop " << r
                                                               << " index " << i;
        EXPECT_EQ(b_compiled.GetInt(r * 64 + i), expected[r][i]) << "LLVM, start " << start << " loop " << r
                                                                 << " index " << i;
      }
    }
  }
}

TEST(TIRLoopStepTest, ANonPositiveSymbolicStepIsARunTimeErrorInTheInterpreter) {
  op::RegisterAllOps();
  tir::PrimFunc func = cast<tir::PrimFuncNode>(text::ParseModuleText(kModule)->Lookup("marks"));
  tir::HostTensor b(DataType::Int(32), {5, 64});
  try {
    tir::RunPrimFunc(func, {&b, int64_t{0}, int64_t{0}});
    ADD_FAILURE() << "a zero step must be reported";
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find("a loop step must be positive"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace rlx::codegen_test
