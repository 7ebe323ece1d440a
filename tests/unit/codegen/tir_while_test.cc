// While loops (tir::WhileNode) written in TVMScript: each function runs in
// the TIR interpreter and compiled through LLVM (JIT, with the default CPU
// schedule) and must match a plain C++ reference: a data-dependent trip
// count (Collatz steps, the condition reading the buffer the body writes),
// a while nested in a parallel loop with a per-iteration counter buffer and
// a symbolic trip count, and a loop that does not run at all.
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
    def collatz(X: T.Buffer((8,), "int64"), S: T.Buffer((8,), "int32")):
        for i in range(8):
            S[i] = 0
            while X[i] != T.int64(1):
                if X[i] % T.int64(2) == T.int64(0):
                    X[i] = X[i] // T.int64(2)
                else:
                    X[i] = X[i] * T.int64(3) + T.int64(1)
                S[i] = S[i] + 1

    @T.prim_func
    def repeat_add(A: T.Buffer((4, 16), "float32"), B: T.Buffer((4, 16), "float32"), n: T.int32):
        for i in T.parallel(4):
            k = T.decl_buffer((1,), "int32")
            k[0] = 0
            for j in range(16):
                B[i, j] = A[i, j]
            while k[0] < n + i:
                for j in range(16):
                    B[i, j] = B[i, j] + T.float32(0.5)
                k[0] = k[0] + 1
)";

tir::PrimFunc ParseWhileFunc(const std::string& name) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(kModule);
  return cast<tir::PrimFuncNode>(mod->Lookup(name));
}

int CollatzSteps(int64_t x) {
  int steps = 0;
  for (; x != 1; ++steps) x = x % 2 == 0 ? x / 2 : 3 * x + 1;
  return steps;
}

TEST(TIRWhileTest, DataDependentTripCountMatchesReference) {
  tir::PrimFunc func = ParseWhileFunc("collatz");
  std::vector<double> starts = {1, 2, 3, 6, 7, 9, 27, 97};
  tir::HostTensor x = tir::HostTensor::FromDoubles(DataType::Int(64), {8}, starts);
  tir::HostTensor steps(DataType::Int(32), {8});

  tir::HostTensor x_interp = x, steps_interp = steps;
  tir::RunPrimFunc(func, {&x_interp, &steps_interp});

  runtime::NDArray x_jit = ToNDArray(x), steps_jit = ToNDArray(steps);
  Compile(func).GetRequiredFunction("kernel")(x_jit, steps_jit);
  tir::HostTensor steps_compiled = ToHostTensor(steps_jit, DataType::Int(32));

  for (int64_t k = 0; k < 8; ++k) {
    int expected = CollatzSteps(static_cast<int64_t>(starts[k]));
    EXPECT_EQ(steps_interp.GetInt(k), expected) << "interpreter, start " << starts[k];
    EXPECT_EQ(steps_compiled.GetInt(k), expected) << "LLVM, start " << starts[k];
  }
  EXPECT_EQ(CollatzSteps(27), 111);  // the reference itself
}

TEST(TIRWhileTest, NestedInParallelLoopWithSymbolicTripCount) {
  tir::PrimFunc func = ParseWhileFunc("repeat_add");
  for (int64_t n : {0, 1, 5}) {
    tir::HostTensor a = Pattern(DataType::Float32(), {4, 16});
    tir::HostTensor b(DataType::Float32(), {4, 16});
    tir::HostTensor b_interp = b;
    tir::RunPrimFunc(func, {&a, &b_interp, n});

    runtime::NDArray b_jit = ToNDArray(b);
    Compile(func).GetRequiredFunction("kernel")(ToNDArray(a), b_jit, runtime::Value(n));
    tir::HostTensor b_compiled = ToHostTensor(b_jit, DataType::Float32());

    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 16; ++j) {
        double expected = a.At({i, j}) + 0.5 * static_cast<double>(n + i);
        EXPECT_FLOAT_EQ(b_interp.At({i, j}), expected) << "interpreter, n=" << n << " at " << i << "," << j;
        EXPECT_FLOAT_EQ(b_compiled.At({i, j}), expected) << "LLVM, n=" << n << " at " << i << "," << j;
      }
    }
  }
}

}  // namespace
}  // namespace rlx::codegen_test
