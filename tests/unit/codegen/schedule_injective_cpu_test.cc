// tir::ScheduleInjectiveCPU: the default CPU schedule of elementwise nests.
// Scheduled and unscheduled functions must compute the same results (in the
// interpreter and through the JIT) for extents 1, odd, large and symbolic;
// the schedule's structure is checked on the printed function and the tree.
#include <gtest/gtest.h>

#include <array>

#include "../op/legalize_test_util.h"
#include "jit_test_util.h"
#include "rlx/text/printer.h"
#include "rlx/tir/transform.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kI32 = DataType::Int32();

std::string TensorType(const std::string& shape, DataType dtype = kF32) {
  return "R.Tensor(" + shape + ", dtype=\"" + dtype.ToString() + "\")";
}

LegalizedOp WithFunc(LegalizedOp op, const tir::PrimFunc& func) {
  op.func = func;
  return op;
}

// Runs `op.func` through the JIT (with or without the default schedule).
tir::HostTensor RunJit(const LegalizedOp& op, const std::vector<tir::HostTensor>& inputs,
                       const std::map<std::string, int64_t>& sizes, bool schedule) {
  codegen::CodegenOptions options;
  options.schedule = schedule;
  runtime::Module module = codegen_test::Compile(op.func, "kernel", options);
  std::vector<tir::HostTensor> outputs = MakeOutputs(op, sizes);
  std::vector<runtime::Value> args;
  std::vector<runtime::NDArray> out_arrays;
  for (const tir::HostTensor& t : inputs) args.push_back(codegen_test::ToNDArray(t));
  for (const tir::HostTensor& t : outputs) {
    out_arrays.push_back(codegen_test::ToNDArray(t));
    args.push_back(out_arrays.back());
  }
  for (int64_t v : TirVarValues(op, sizes)) args.push_back(runtime::Value(v));
  module.GetRequiredFunction("kernel").CallPacked(args);
  return codegen_test::ToHostTensor(out_arrays[0], outputs[0].dtype);
}

void ExpectSameTensor(const tir::HostTensor& actual, const tir::HostTensor& expected, const std::string& what) {
  ASSERT_EQ(actual.shape, expected.shape) << what;
  ASSERT_EQ(actual.data, expected.data) << what;  // bit-exact: the schedule only reorders iterations
}

// Interpreter (unscheduled) as the reference; interpreter (scheduled), JIT
// (unscheduled) and JIT (scheduled) must all agree with it bit for bit.
void ExpectScheduleKeepsResults(const LegalizedOp& op, const std::vector<tir::HostTensor>& inputs,
                                const std::map<std::string, int64_t>& sizes, const std::string& what) {
  tir::PrimFunc scheduled = tir::ScheduleInjectiveCPU(op.func);
  ASSERT_FALSE(scheduled.same_as(op.func)) << what << ": the nest should have been scheduled";
  tir::HostTensor reference = RunLegalized(op, inputs, sizes);
  ExpectSameTensor(RunLegalized(WithFunc(op, scheduled), inputs, sizes), reference, what + " (interpreter)");
  ExpectSameTensor(RunJit(op, inputs, sizes, false), reference, what + " (JIT, unscheduled)");
  ExpectSameTensor(RunJit(op, inputs, sizes, true), reference, what + " (JIT, scheduled)");
  ExpectSameTensor(RunJit(WithFunc(op, scheduled), inputs, sizes, false), reference, what + " (JIT, pre-scheduled)");
}

TEST(ScheduleInjectiveCPUTest, SymbolicOneDimensionalAddAtManyExtents) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\",)")}, {"y", TensorType("(\"n\",)")}}, "R.add(x, y)");
  for (int64_t n : {0, 1, 7, 15, 16, 17, 33, 1000, 100003}) {
    tir::HostTensor x = RandomTensor(kF32, {n}, 1), y = RandomTensor(kF32, {n}, 2);
    ExpectScheduleKeepsResults(op, {x, y}, {{"n", n}}, "n = " + std::to_string(n));
  }
}

TEST(ScheduleInjectiveCPUTest, SymbolicTwoDimensionalBroadcast) {
  LegalizedOp op =
      LegalizeCall({{"x", TensorType("(\"m\", 1)")}, {"y", TensorType("(1, \"n\")")}}, "R.multiply(x, y)");
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {3, 1}, {1, 17}, {5, 33}, {64, 1001}}) {
    tir::HostTensor x = RandomTensor(kF32, {m, 1}, 3), y = RandomTensor(kF32, {1, n}, 4);
    ExpectScheduleKeepsResults(op, {x, y}, {{"m", m}, {"n", n}},
                               "m = " + std::to_string(m) + ", n = " + std::to_string(n));
  }
}

// Four loops (an NHWC activation times a per-channel scale): the three outer
// loops are fused into one parallel loop, exact at every extent, 0 and a
// batch of 1 included.
TEST(ScheduleInjectiveCPUTest, SymbolicFourDimensionalBroadcastFusesOuterLoops) {
  LegalizedOp op = LegalizeCall(
      {{"x", TensorType("(\"n\", \"h\", \"w\", \"c\")")}, {"y", TensorType("(1, 1, 1, \"c\")")}}, "R.multiply(x, y)");
  using Sizes = std::array<int64_t, 4>;
  for (const Sizes& size : std::vector<Sizes>{{1, 1, 1, 1}, {1, 7, 5, 3}, {2, 3, 1, 17}, {1, 40, 33, 24}, {3, 0, 4, 16},
                                              {1, 9, 11, 0}}) {
    auto [n, h, w, c] = size;
    tir::HostTensor x = RandomTensor(kF32, {n, h, w, c}, 9), y = RandomTensor(kF32, {1, 1, 1, c}, 10);
    ExpectScheduleKeepsResults(op, {x, y}, {{"n", n}, {"h", h}, {"w", w}, {"c", c}},
                               "(" + std::to_string(n) + ", " + std::to_string(h) + ", " + std::to_string(w) + ", " +
                                   std::to_string(c) + ")");
  }
  tir::PrimFunc scheduled = tir::ScheduleInjectiveCPU(op.func);
  int parallel_loops = 0;
  const tir::ForNode* parallel = nullptr;
  tir::PostOrderVisit(scheduled->body, [&](const ObjectRef& node) {
    if (const auto* loop = node.as<tir::ForNode>(); loop && loop->for_kind == tir::ForKind::kParallel) {
      ++parallel_loops;
      parallel = loop;
    }
  });
  ASSERT_EQ(parallel_loops, 1);
  ASSERT_NE(parallel, nullptr);
  // Directly inside it: the innermost loop's main part and tail, no loop of
  // the other outer dimensions.
  const auto* seq = parallel->body.as<tir::SeqStmtNode>();
  ASSERT_NE(seq, nullptr);
  for (const auto& stmt : seq->seq) {
    const auto* loop = stmt.as<tir::ForNode>();
    ASSERT_NE(loop, nullptr);
    if (loop->body.as<tir::ForNode>() == nullptr) continue;  // the serial tail
    EXPECT_EQ(loop->body.as<tir::ForNode>()->for_kind, tir::ForKind::kVectorized);
  }
}

TEST(ScheduleInjectiveCPUTest, ConstantShapesLargeAndOdd) {
  LegalizedOp large = LegalizeCall({{"x", TensorType("(300, 129)", kI32)}, {"y", TensorType("(300, 129)", kI32)}},
                                   "R.subtract(x, y)");
  ExpectScheduleKeepsResults(large, {RandomTensor(kI32, {300, 129}, 5, -100, 100),
                                     RandomTensor(kI32, {300, 129}, 6, -100, 100)},
                             {}, "300 x 129");
  // Correctly rounded arithmetic, so the interpreter and compiled code agree
  // bit for bit (compiled exp is a fast approximation within 1 ulp).
  LegalizedOp odd = LegalizeCall({{"x", TensorType("(3, 21)")}, {"y", TensorType("(3, 21)")}}, "R.multiply(x, y)");
  ExpectScheduleKeepsResults(odd, {RandomTensor(kF32, {3, 21}, 7), RandomTensor(kF32, {3, 21}, 8)}, {}, "3 x 21");
}

// The tree of a scheduled 2-d symbolic add: a parallel outer loop around a
// vectorized main part (16 float32 lanes = one cache line) and a serial tail.
TEST(ScheduleInjectiveCPUTest, StructureOfTwoDimensionalSchedule) {
  LegalizedOp op =
      LegalizeCall({{"x", TensorType("(\"m\", \"n\")")}, {"y", TensorType("(\"m\", \"n\")")}}, "R.add(x, y)");
  tir::PrimFunc scheduled = tir::ScheduleInjectiveCPU(op.func);
  const tir::ForNode* outer = nullptr;
  tir::PostOrderVisit(scheduled->body, [&](const ObjectRef& node) {
    if (const auto* loop = node.as<tir::ForNode>(); loop && loop->for_kind == tir::ForKind::kParallel) {
      ASSERT_EQ(outer, nullptr) << "one parallel loop expected";
      outer = loop;
    }
  });
  ASSERT_NE(outer, nullptr);
  const auto* seq = outer->body.as<tir::SeqStmtNode>();
  ASSERT_NE(seq, nullptr) << "main part and tail expected";
  ASSERT_EQ(seq->seq.size(), 2u);
  const auto* main = seq->seq[0].as<tir::ForNode>();
  const auto* tail = seq->seq[1].as<tir::ForNode>();
  ASSERT_TRUE(main && tail);
  EXPECT_EQ(main->for_kind, tir::ForKind::kSerial);
  EXPECT_EQ(tail->for_kind, tir::ForKind::kSerial);
  const auto* lanes = main->body.as<tir::ForNode>();
  ASSERT_NE(lanes, nullptr);
  EXPECT_EQ(lanes->for_kind, tir::ForKind::kVectorized);
  EXPECT_TRUE(ir::IsConstInt(lanes->extent, 16));
  EXPECT_TRUE(lanes->body.isa<tir::BlockRealizeNode>());
  EXPECT_TRUE(tail->body.isa<tir::BlockRealizeNode>());

  std::string text = text::PrintPrimFunc(scheduled, "add");
  EXPECT_NE(text.find("T.parallel("), std::string::npos) << text;
  EXPECT_NE(text.find("T.vectorized(T.int64(16))"), std::string::npos) << text;
  EXPECT_NE(text.find("T.max("), std::string::npos) << text;  // the extent is clamped at 0
}

// One loop: the vectorized main part's outer loop is the parallel one; a
// constant multiple of the factor has no tail.
TEST(ScheduleInjectiveCPUTest, OneDimensionalConstantMultipleHasNoTail) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(65536,)")}, {"y", TensorType("(65536,)")}}, "R.add(x, y)");
  tir::PrimFunc scheduled = tir::ScheduleInjectiveCPU(op.func);
  int loops = 0;
  tir::PostOrderVisit(scheduled->body, [&](const ObjectRef& node) {
    const auto* loop = node.as<tir::ForNode>();
    if (!loop) return;
    ++loops;
    if (loop->for_kind == tir::ForKind::kParallel) {
      EXPECT_TRUE(ir::IsConstInt(loop->extent, 4096));
    }
    if (loop->for_kind == tir::ForKind::kVectorized) {
      EXPECT_TRUE(ir::IsConstInt(loop->extent, 16));
    }
  });
  EXPECT_EQ(loops, 2);
  std::string text = text::PrintPrimFunc(scheduled, "add");
  EXPECT_NE(text.find("T.parallel(T.int64(4096))"), std::string::npos) << text;
}

TEST(ScheduleInjectiveCPUTest, SmallConstantNestStaysSerial) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(4, 40)")}}, "R.negative(x)");
  tir::PrimFunc scheduled = tir::ScheduleInjectiveCPU(op.func);
  bool parallel = false, vectorized = false;
  tir::PostOrderVisit(scheduled->body, [&](const ObjectRef& node) {
    if (const auto* loop = node.as<tir::ForNode>()) {
      parallel |= loop->for_kind == tir::ForKind::kParallel;
      vectorized |= loop->for_kind == tir::ForKind::kVectorized;
    }
  });
  EXPECT_FALSE(parallel);
  EXPECT_TRUE(vectorized);
}

TEST(ScheduleInjectiveCPUTest, ReductionsAreLeftAlone) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\", 6)")}}, "R.sum(x, axis=[1], keepdims=True)");
  EXPECT_TRUE(tir::ScheduleInjectiveCPU(op.func).same_as(op.func));
}

TEST(ScheduleInjectiveCPUTest, Idempotent) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\", 8)")}}, "R.exp(x)");
  tir::PrimFunc once = tir::ScheduleInjectiveCPU(op.func);
  ASSERT_FALSE(once.same_as(op.func));
  EXPECT_TRUE(tir::ScheduleInjectiveCPU(once).same_as(once));
}

}  // namespace
}  // namespace rlx::op_test

namespace rlx::op_test {
namespace {

// The vectorized lanes must reach LLVM as one vector loop (wide loads and
// stores), not be unrolled into scalars that the vectorizer then widens
// across the enclosing loop with gathers and scatters.
TEST(ScheduleInjectiveCPUTest, VectorizedLanesBecomeWideAccesses) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"n\",)")}, {"y", TensorType("(\"n\",)")}}, "R.add(x, y)");
  auto jit = codegen::JitModule::Compile({{"add", op.func}}, {});
  const std::string& ir = jit->GetLLVMIR();
  EXPECT_NE(ir.find("load <16 x float>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("store <16 x float>"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("masked.gather"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("masked.scatter"), std::string::npos) << ir;
}

}  // namespace
}  // namespace rlx::op_test
