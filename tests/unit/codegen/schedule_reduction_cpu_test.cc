// tir::ScheduleReductionCPU: the default CPU schedule of non-injective nests
// (one outer spatial loop made parallel). Structure: which loop of matmul,
// conv2d, softmax, layer_norm, max_pool2d and a fused multi-nest PrimFunc
// becomes parallel, and which nests are left alone. Numbers: compiled with
// and without the schedule (bit for bit: the schedule only distributes
// independent iterations) and against the interpreter, at sizes 1, odd and
// large.
#include <gtest/gtest.h>

#include <array>

#include "../op/legalize_test_util.h"
#include "jit_test_util.h"
#include "rlx/text/printer.h"
#include "rlx/tir/transform.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();

std::string TensorType(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

// The kinds of the loops around each block (outermost first), by block name.
class LoopKindsRecorder : public tir::StmtVisitor {
 public:
  std::map<std::string, std::vector<tir::ForKind>> kinds;

 protected:
  using tir::StmtVisitor::VisitStmt_;
  void VisitStmt_(const tir::ForNode* op, const tir::Stmt& self) override {
    stack_.push_back(op->for_kind);
    tir::StmtVisitor::VisitStmt_(op, self);
    stack_.pop_back();
  }
  void VisitStmt_(const tir::BlockNode* op, const tir::Stmt& self) override {
    kinds[op->name] = stack_;
    tir::StmtVisitor::VisitStmt_(op, self);
  }

 private:
  std::vector<tir::ForKind> stack_;
};

std::map<std::string, std::vector<tir::ForKind>> LoopKinds(const tir::PrimFunc& func) {
  LoopKindsRecorder recorder;
  recorder.VisitStmt(func->body);
  return recorder.kinds;
}

// The position of the one parallel loop around block `name`; -1 when none.
int ParallelLoopOf(const tir::PrimFunc& func, const std::string& name) {
  auto kinds = LoopKinds(func);
  EXPECT_TRUE(kinds.count(name)) << "no block " << name << "\n" << text::PrintPrimFunc(func, "f");
  int position = -1;
  for (size_t j = 0; j < kinds[name].size(); ++j) {
    if (kinds[name][j] != tir::ForKind::kParallel) continue;
    EXPECT_EQ(position, -1) << "two parallel loops around " << name;
    position = static_cast<int>(j);
  }
  return position;
}

// Both default schedules, as the backend runs them.
tir::PrimFunc Scheduled(const tir::PrimFunc& func) {
  return tir::ScheduleReductionCPU(tir::ScheduleInjectiveCPU(func));
}

std::vector<tir::HostTensor> RunJit(const tir::PrimFunc& func, const std::vector<tir::HostTensor>& inputs,
                                    std::vector<tir::HostTensor> outputs, const std::vector<int64_t>& scalars,
                                    bool schedule) {
  codegen::CodegenOptions options;
  options.schedule = schedule;
  runtime::Module module = codegen_test::Compile(func, "kernel", options);
  std::vector<runtime::Value> args;
  std::vector<runtime::NDArray> out_arrays;
  for (const tir::HostTensor& t : inputs) args.push_back(codegen_test::ToNDArray(t));
  for (const tir::HostTensor& t : outputs) {
    out_arrays.push_back(codegen_test::ToNDArray(t));
    args.push_back(out_arrays.back());
  }
  for (int64_t v : scalars) args.push_back(runtime::Value(v));
  module.GetRequiredFunction("kernel").CallPacked(args);
  for (size_t i = 0; i < outputs.size(); ++i) outputs[i] = codegen_test::ToHostTensor(out_arrays[i], outputs[i].dtype);
  return outputs;
}

void ExpectNear(const tir::HostTensor& actual, const tir::HostTensor& expected, const std::string& what) {
  ASSERT_EQ(actual.shape, expected.shape) << what;
  for (int64_t i = 0; i < actual.num_elements(); ++i) {
    double a = actual.GetFloat(i), e = expected.GetFloat(i);
    ASSERT_NEAR(a, e, 1e-4 * (1 + std::abs(e))) << what << " at " << i;
  }
}

// The legalized op compiled with the schedule gives bit for bit what it
// gives without, and both are close to the interpreter's result.
void ExpectScheduleKeepsResults(const LegalizedOp& op, const std::vector<tir::HostTensor>& inputs,
                                const std::map<std::string, int64_t>& sizes, const std::string& what) {
  std::vector<int64_t> scalars = TirVarValues(op, sizes);
  tir::HostTensor serial = RunJit(op.func, inputs, MakeOutputs(op, sizes), scalars, false)[0];
  tir::HostTensor parallel = RunJit(op.func, inputs, MakeOutputs(op, sizes), scalars, true)[0];
  ASSERT_EQ(parallel.shape, serial.shape) << what;
  EXPECT_EQ(parallel.data, serial.data) << what << ": scheduled and serial results differ";
  ExpectNear(parallel, RunLegalized(op, inputs, sizes), what + " (against the interpreter)");
}

// ----------------------------------------------------------------- structure

TEST(ScheduleReductionCPUTest, MatmulParallelizesRowsAndSkipsBatchOne) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(1, \"n\", 32)")}, {"w", TensorType("(32, 48)")}},
                                "R.matmul(x, w)");
  tir::PrimFunc scheduled = Scheduled(op.func);
  auto kinds = LoopKinds(scheduled);
  ASSERT_EQ(kinds.size(), 2u) << text::PrintPrimFunc(scheduled, "matmul");  // root + matmul
  std::string block = kinds.begin()->first == "root" ? kinds.rbegin()->first : kinds.begin()->first;
  // batch (extent 1) stays serial; rows (n, symbolic: 1 when decoding) and
  // columns (48) are fused into one parallel loop; k stays serial.
  ASSERT_EQ(kinds[block].size(), 3u) << text::PrintPrimFunc(scheduled, "matmul");
  EXPECT_EQ(ParallelLoopOf(scheduled, block), 1) << text::PrintPrimFunc(scheduled, "matmul");
  EXPECT_EQ(kinds[block][2], tir::ForKind::kSerial);
  std::string text = text::PrintPrimFunc(scheduled, "matmul");
  EXPECT_NE(text.find("for fused in T.parallel("), std::string::npos) << text;
  EXPECT_NE(text.find("T.max(n, T.int64(0))"), std::string::npos) << text;
  // Idempotent.
  EXPECT_TRUE(tir::ScheduleReductionCPU(scheduled).same_as(scheduled));
}

TEST(ScheduleReductionCPUTest, Conv2dNchwParallelizesOutputChannels) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(1, 3, \"h\", \"w\")")}, {"wt", TensorType("(8, 3, 3, 3)")}},
                                "R.nn.conv2d(x, wt, padding=[1, 1])");
  tir::PrimFunc scheduled = Scheduled(op.func);
  std::string text = text::PrintPrimFunc(scheduled, "conv2d");
  bool found = false;
  for (const auto& [name, kinds] : LoopKinds(scheduled)) {
    if (kinds.size() != 7) continue;  // the convolution: n, c, h, w, rc, ry, rx
    found = true;
    EXPECT_EQ(ParallelLoopOf(scheduled, name), 1) << text;
  }
  EXPECT_TRUE(found) << text;
  EXPECT_NE(text.find("T.parallel(T.int64(8))"), std::string::npos) << text;
}

// The names of the blocks with a reduce iteration variable.
std::vector<std::string> ReductionBlocks(const tir::PrimFunc& func) {
  std::vector<std::string> names;
  tir::PostOrderVisit(func->body, [&](const ObjectRef& node) {
    const auto* block = node.as<tir::BlockNode>();
    if (!block) return;
    for (const tir::IterVar& iter_var : block->iter_vars) {
      if (iter_var->iter_kind == tir::IterKind::kReduce) {
        names.push_back(block->name);
        break;
      }
    }
  });
  return names;
}

TEST(ScheduleReductionCPUTest, SoftmaxAndLayerNormReductionsParallelizeRows) {
  for (const std::string& call :
       {std::string("R.nn.softmax(x, axis=-1)"), std::string("R.nn.layer_norm(x, g, b, axes=[-1])")}) {
    LegalizedOp op = LegalizeCall(
        {{"x", TensorType("(\"n\", 37)")}, {"g", TensorType("(37,)")}, {"b", TensorType("(37,)")}}, call);
    std::vector<std::string> reductions = ReductionBlocks(op.func);
    EXPECT_EQ(reductions.size(), 2u) << call;  // max and sum; mean and variance sums
    // Alone and after the injective schedule: each reduction's row loop
    // (loops: row, reduce) becomes parallel, the reduce loop stays serial.
    for (const tir::PrimFunc& scheduled : {tir::ScheduleReductionCPU(op.func), Scheduled(op.func)}) {
      std::string text = text::PrintPrimFunc(scheduled, "f");
      for (const std::string& name : reductions) {
        EXPECT_EQ(ParallelLoopOf(scheduled, name), 0) << call << ": " << name << "\n" << text;
        EXPECT_EQ(LoopKinds(scheduled)[name].size(), 2u) << name;
      }
    }
  }
}

TEST(ScheduleReductionCPUTest, MaxPool2dParallelizesChannels) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(1, 16, \"h\", \"w\")")}},
                                "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])");
  tir::PrimFunc scheduled = Scheduled(op.func);
  std::string text = text::PrintPrimFunc(scheduled, "pool");
  bool found = false;
  for (const auto& [name, kinds] : LoopKinds(scheduled)) {
    if (kinds.size() != 6) continue;  // the pooling: n, c, h, w, rh, rw
    found = true;
    EXPECT_EQ(ParallelLoopOf(scheduled, name), 1) << text;
  }
  EXPECT_TRUE(found) << text;
}

// A fused PrimFunc: matmul into an intermediate, then bias + relu reading it,
// both nests inside the root block. Each nest gets its own parallel loop; the
// second still runs after the first.
constexpr const char* kFusedModule = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fused_matmul_add_relu(var_x: T.handle, var_w: T.handle, var_b: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(24)))
        w = T.match_buffer(var_w, (T.int64(24), T.int64(40)))
        b = T.match_buffer(var_b, (T.int64(40),))
        y = T.match_buffer(var_y, (n, T.int64(40)))
        with T.block("root"):
            mm = T.alloc_buffer((n, T.int64(40)))
            for i, j, k in T.grid(n, T.int64(40), T.int64(24)):
                with T.block("matmul"):
                    vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                    with T.init():
                        mm[vi, vj] = T.float32(0)
                    mm[vi, vj] = mm[vi, vj] + x[vi, vk] * w[vk, vj]
            for i, j in T.grid(n, T.int64(40)):
                with T.block("add_relu"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    y[vi, vj] = T.max(mm[vi, vj] + b[vj], T.float32(0))
)";

tir::PrimFunc ParsePrimFunc(const std::string& text, const std::string& name) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(text);
  return cast<tir::PrimFuncNode>(mod->Lookup(name));
}

TEST(ScheduleReductionCPUTest, FusedMultiNestParallelizesEachNest) {
  tir::PrimFunc func = ParsePrimFunc(kFusedModule, "fused_matmul_add_relu");
  tir::PrimFunc reductions_only = tir::ScheduleReductionCPU(func);
  EXPECT_EQ(ParallelLoopOf(reductions_only, "matmul"), 0);
  EXPECT_EQ(ParallelLoopOf(reductions_only, "add_relu"), 0);
  tir::PrimFunc scheduled = Scheduled(func);
  EXPECT_EQ(ParallelLoopOf(scheduled, "matmul"), 0);
  EXPECT_EQ(ParallelLoopOf(scheduled, "add_relu"), 0);

  for (int64_t n : {1, 7, 513}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 24}, 1), w = RandomTensor(kF32, {24, 40}, 2);
    tir::HostTensor b = RandomTensor(kF32, {40}, 3);
    std::vector<tir::HostTensor> outputs = {tir::HostTensor(kF32, {n, 40})};
    tir::HostTensor serial = RunJit(func, {x, w, b}, outputs, {}, false)[0];
    tir::HostTensor parallel = RunJit(func, {x, w, b}, outputs, {}, true)[0];
    EXPECT_EQ(parallel.data, serial.data) << "n = " << n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < 40; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < 24; ++k) sum += x.GetFloat(i * 24 + k) * w.GetFloat(k * 40 + j);
        double expected = std::max(sum + b.GetFloat(j), 0.0);
        ASSERT_NEAR(parallel.GetFloat(i * 40 + j), expected, 1e-4 * (1 + std::abs(expected))) << i << ", " << j;
      }
    }
  }
}

// A scan reads the element the previous iteration wrote: its spatial loop
// does not own its writes, so it stays serial.
constexpr const char* kScanModule = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scan(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (T.int64(64), n))
        y = T.match_buffer(var_y, (T.int64(64), n))
        for i, j in T.grid(n - T.int64(1), T.int64(64)):
            with T.block("scan"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vj, vi + T.int64(1)] = y[vj, vi] + x[vj, vi + T.int64(1)]
)";

TEST(ScheduleReductionCPUTest, LeavesAloneWhatItCannotProve) {
  // The scan: the outer loop's variable indexes the store only through
  // vi + 1 and the load reads vi; the inner loop's variable owns y's first
  // dimension, so that one may run in parallel (the outer loop stays serial).
  tir::PrimFunc scan = ParsePrimFunc(kScanModule, "scan");
  tir::PrimFunc scheduled = tir::ScheduleReductionCPU(scan);
  EXPECT_EQ(ParallelLoopOf(scheduled, "scan"), 1) << text::PrintPrimFunc(scheduled, "scan");

  // A full reduction: every loop is a reduce loop.
  LegalizedOp sum = LegalizeCall({{"x", TensorType("(\"n\", 300)")}}, "R.sum(x)");
  tir::PrimFunc sum_scheduled = tir::ScheduleReductionCPU(sum.func);
  EXPECT_TRUE(sum_scheduled.same_as(sum.func)) << text::PrintPrimFunc(sum_scheduled, "sum");

  // A small constant matmul: not worth a parallel dispatch.
  LegalizedOp small = LegalizeCall({{"x", TensorType("(4, 8)")}, {"w", TensorType("(8, 4)")}}, "R.matmul(x, w)");
  EXPECT_TRUE(tir::ScheduleReductionCPU(small.func).same_as(small.func));
}

constexpr const char* kScanOnlyModule = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scan(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n - T.int64(1)):
            with T.block("scan"):
                vi = T.axis.spatial(n - T.int64(1), i)
                y[vi + T.int64(1)] = y[vi] + x[vi + T.int64(1)]
)";

TEST(ScheduleReductionCPUTest, OneDimensionalScanStaysSerial) {
  tir::PrimFunc scan = ParsePrimFunc(kScanOnlyModule, "scan");
  EXPECT_TRUE(tir::ScheduleReductionCPU(scan).same_as(scan));
  EXPECT_TRUE(Scheduled(scan).same_as(scan));
  // And it computes a prefix sum when compiled with the default schedule.
  int64_t n = 100000;
  tir::HostTensor x = RandomTensor(kF32, {n}, 4);
  tir::HostTensor y = x;  // y[0] = x[0]
  tir::HostTensor result = RunJit(scan, {x}, {y}, {}, true)[0];
  float running = 0;
  for (int64_t i = 0; i < n; ++i) {
    running += static_cast<float>(x.GetFloat(i));
    ASSERT_EQ(static_cast<float>(result.GetFloat(i)), running) << i;
  }
}

// ------------------------------------------------------------------- numbers

TEST(ScheduleReductionCPUTest, MatmulNumbers) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"b\", \"n\", 32)")}, {"w", TensorType("(32, 48)")}},
                                "R.matmul(x, w)");
  for (auto [b, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {1, 7}, {3, 5}, {1, 600}, {2, 257}}) {
    tir::HostTensor x = RandomTensor(kF32, {b, n, 32}, 1), w = RandomTensor(kF32, {32, 48}, 2);
    ExpectScheduleKeepsResults(op, {x, w}, {{"b", b}, {"n", n}},
                               "b = " + std::to_string(b) + ", n = " + std::to_string(n));
  }
}

TEST(ScheduleReductionCPUTest, Conv2dNumbers) {
  LegalizedOp op = LegalizeCall({{"x", TensorType("(\"b\", 3, \"h\", \"w\")")}, {"wt", TensorType("(8, 3, 3, 3)")}},
                                "R.nn.conv2d(x, wt, padding=[1, 1])");
  for (auto [b, h, w] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{{1, 1, 1}, {1, 7, 5}, {2, 33, 65}}) {
    tir::HostTensor x = RandomTensor(kF32, {b, 3, h, w}, 1), wt = RandomTensor(kF32, {8, 3, 3, 3}, 2);
    ExpectScheduleKeepsResults(op, {x, wt}, {{"b", b}, {"h", h}, {"w", w}},
                               "b = " + std::to_string(b) + ", h = " + std::to_string(h));
  }
}

// The mean over H and W of an NHWC tensor with a symbolic batch: the batch
// loop and the channel loop are fused into one parallel loop; exact at a
// batch of 1, of 0 and larger ones.
TEST(ScheduleReductionCPUTest, NhwcMeanFusesBatchAndChannels) {
  LegalizedOp mean = LegalizeCall({{"x", TensorType("(\"n\", \"h\", \"w\", 24)")}},
                                  "R.mean(x, axis=[1, 2], keepdims=True)");
  tir::PrimFunc scheduled = Scheduled(mean.func);
  std::string text = text::PrintPrimFunc(scheduled, "mean");
  EXPECT_NE(text.find("for fused in T.parallel("), std::string::npos) << text;
  using Sizes = std::array<int64_t, 3>;
  for (const Sizes& size : std::vector<Sizes>{{1, 1, 1}, {1, 5, 7}, {3, 9, 4}, {0, 3, 3}, {1, 40, 33}}) {
    auto [n, h, w] = size;
    std::map<std::string, int64_t> sizes = {{"n", n}, {"h", h}, {"w", w}};
    ExpectScheduleKeepsResults(mean, {RandomTensor(kF32, {n, h, w, 24}, 5)}, sizes,
                               "mean (" + std::to_string(n) + ", " + std::to_string(h) + ", " + std::to_string(w) + ")");
  }
}

TEST(ScheduleReductionCPUTest, SoftmaxLayerNormAndPoolNumbers) {
  for (int64_t n : {1, 7, 1000}) {
    std::map<std::string, int64_t> sizes = {{"n", n}};
    tir::HostTensor x = RandomTensor(kF32, {n, 37}, 1);
    tir::HostTensor g = RandomTensor(kF32, {37}, 2), bt = RandomTensor(kF32, {37}, 3);
    LegalizedOp softmax = LegalizeCall({{"x", TensorType("(\"n\", 37)")}}, "R.nn.softmax(x, axis=-1)");
    ExpectScheduleKeepsResults(softmax, {x}, sizes, "softmax n = " + std::to_string(n));
    LegalizedOp layer_norm = LegalizeCall(
        {{"x", TensorType("(\"n\", 37)")}, {"g", TensorType("(37,)")}, {"b", TensorType("(37,)")}},
        "R.nn.layer_norm(x, g, b, axes=[-1])");
    ExpectScheduleKeepsResults(layer_norm, {x, g, bt}, sizes, "layer_norm n = " + std::to_string(n));
    LegalizedOp pool = LegalizeCall({{"x", TensorType("(1, 16, \"n\", 9)")}},
                                    "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])");
    ExpectScheduleKeepsResults(pool, {RandomTensor(kF32, {1, 16, n, 9}, 4)}, sizes,
                               "max_pool2d n = " + std::to_string(n));
  }
}

}  // namespace
}  // namespace rlx::op_test
