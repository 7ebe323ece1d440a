// End-to-end tests of memory planning: modules through the default pipeline
// (rewrite-dataflow-reshape, static-plan-block-memory, ...) and the VM, with
// planning on and off (both passes disabled), and with the run-time
// memory-plan verifier and NaN fill (rlx/runtime/memory_debug.h) on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/op/op.h"
#include "rlx/runtime/allocator.h"
#include "rlx/runtime/memory_debug.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"
#include "rlx/transform/pipeline.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using ::testing::HasSubstr;

// A symbolic-length block with several intermediates, views among them.
constexpr const char* kSymbolicBlock = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        ATTRS
        with R.dataflow():
            a = R.matmul(x, w)
            b = R.add(a, x)
            c = R.multiply(b, a)
            d = R.reshape(c, R.shape([4, n]))
            e = R.permute_dims(d)
            f = R.subtract(e, b)
            g = R.flatten(f)
            h = R.add(g, g)
            i = R.reshape(h, R.shape([n, 4]))
            j = R.multiply(i, x)
            k = R.add(j, c)
            R.output(k)
        return k
)";

std::string SymbolicBlock(const std::string& attrs) {
  std::string text = kSymbolicBlock;
  text.replace(text.find("ATTRS"), 5, attrs);
  return text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<float> RandomVector(size_t size, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(size);
  for (auto& v : values) v = dist(rng);
  return values;
}

// static-plan-block-memory checks its own result (rlx build --verify-memory-plan).
transform::PassContext VerifyingContext() {
  transform::PassContext ctx;
  ctx.config = ir::DictWith(ctx.config, transform::kVerifyMemoryPlanConfig, ir::MakeInt(1, DataType::Bool()));
  return ctx;
}

class MemoryPlanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
  void TearDown() override { rt::SetMemoryDebug(debug_before_); }

  // fuse = false keeps one kernel per operator, so the structure of the plan
  // (which reshapes became views, which tensors share storage) is the
  // block's own, not that of the fused kernels.
  static ir::IRModule Lower(const std::string& text, bool plan, bool fuse = true) {
    transform::PassContext ctx = VerifyingContext();
    if (!plan) ctx.disabled_passes = {"static-plan-block-memory", "rewrite-dataflow-reshape"};
    if (!fuse) {
      ctx.disabled_passes.push_back("fuse-ops");
      ctx.disabled_passes.push_back("fuse-tir");
    }
    return transform::DefaultPipeline()(text::ParseModuleText(text), ctx);
  }

  static std::vector<float> Run(const VMCompiled& compiled, const std::vector<rt::Value>& args,
                                rt::Allocator* allocator = nullptr) {
    rvm::VirtualMachine vm(compiled.exec, compiled.library, allocator);
    return vm.Invoke("main", args).AsNDArray().ToVector<float>();
  }

  // Planning on and off give bit-identical results, with the verifier and
  // NaN fill off and on.
  static void ExpectPlanningKeepsResults(const std::string& text, const std::vector<std::vector<rt::Value>>& inputs) {
    VMCompiled planned = CompileForVM(Lower(text, true));
    VMCompiled unplanned = CompileForVM(Lower(text, false));
    for (const auto& args : inputs) {
      rt::SetMemoryDebug(false);
      std::vector<float> expected = Run(unplanned, args);
      for (float v : expected) ASSERT_FALSE(std::isnan(v));
      EXPECT_EQ(Run(planned, args), expected);
      rt::SetMemoryDebug(true);
      EXPECT_EQ(Run(planned, args), expected);
      EXPECT_EQ(Run(unplanned, args), expected);
    }
  }

  bool debug_before_ = rt::MemoryDebugEnabled();
};

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++count;
  return count;
}

std::vector<rt::Value> BlockInputs(int64_t n, std::mt19937& rng) {
  return {rt::Value(rt::NDArray::FromVector<float>({n, 4}, RandomVector(n * 4, rng))),
          rt::Value(rt::NDArray::FromVector<float>({4, 4}, RandomVector(16, rng)))};
}

TEST_F(MemoryPlanTest, SymbolicBlockPlansReshapesAsViewsAndSharesStorage) {
  std::string lowered = text::PrintModule(Lower(SymbolicBlock(""), true, /*fuse=*/false));
  // The three reshapes are views; e, f, h and the matmul output share storage.
  EXPECT_EQ(Count(lowered, "vm.builtin.reshape"), 3u) << lowered;
  EXPECT_LT(Count(lowered, "R.vm.alloc_storage"), Count(lowered, "R.vm.alloc_tensor")) << lowered;
  std::string unplanned = text::PrintModule(Lower(SymbolicBlock(""), false, /*fuse=*/false));
  EXPECT_EQ(Count(unplanned, "vm.builtin.reshape"), 0u);
  EXPECT_EQ(Count(unplanned, "R.vm.alloc_storage"), Count(unplanned, "R.vm.alloc_tensor"));
}

TEST_F(MemoryPlanTest, SymbolicBlockGivesTheSameResultsWithAndWithoutPlanning) {
  std::mt19937 rng(7);
  std::vector<std::vector<rt::Value>> inputs;
  for (int64_t n : {1, 7, 1000}) inputs.push_back(BlockInputs(n, rng));
  ExpectPlanningKeepsResults(SymbolicBlock(""), inputs);
}

TEST_F(MemoryPlanTest, UpperBoundedBlockGivesTheSameResultsAndStaticStorage) {
  std::string text = SymbolicBlock(R"(R.func_attr({"tir_var_upper_bound": {"n": 1024}}))");
  std::string lowered = text::PrintModule(Lower(text, true));
  // The intermediates and the output are packed into one arena of static
  // size.
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage("), 1u) << lowered;
  EXPECT_THAT(lowered, HasSubstr("R.vm.alloc_storage(R.shape([")) << lowered;
  std::mt19937 rng(11);
  std::vector<std::vector<rt::Value>> inputs;
  for (int64_t n : {1, 7, 1024}) inputs.push_back(BlockInputs(n, rng));
  ExpectPlanningKeepsResults(text, inputs);
}

TEST_F(MemoryPlanTest, UpperBoundedStorageIsServedFromThePoolOnEveryLaterCall) {
  std::string text = SymbolicBlock(R"(R.func_attr({"tir_var_upper_bound": {"n": 1024}}))");
  VMCompiled planned = CompileForVM(Lower(text, true));
  rt::PooledAllocator pool;
  std::mt19937 rng(5);
  Run(planned, BlockInputs(1000, rng), &pool);
  int64_t first_allocs = pool.GetStats().total_allocs - pool.GetStats().pool_hits;
  for (int64_t n : {3, 517, 1024}) Run(planned, BlockInputs(n, rng), &pool);
  rt::Allocator::Stats stats = pool.GetStats();
  // Every storage is of static size, the output's arena included: later calls
  // (each with a VM of its own) take every block from the pool.
  EXPECT_EQ(stats.total_allocs - stats.pool_hits, first_allocs);
  EXPECT_GT(stats.pool_hits, 0);
}

// An example's main function with its symbolic `n` bounded by `bound`.
std::string BoundedExample(const std::string& file, int64_t bound) {
  std::string text = ReadFile(std::string(RLX_SOURCE_DIR) + "/examples/" + file);
  const std::string decl = "n = T.int64()\n";
  size_t at = text.find(decl, text.find("def main("));
  if (at == std::string::npos) return "";
  text.insert(at + decl.size(),
              "        R.func_attr({\"tir_var_upper_bound\": {\"n\": " + std::to_string(bound) + "}})\n");
  return text;
}

// examples/transformer_block.py with the sequence length bounded by 64.
std::string BoundedTransformerBlock() { return BoundedExample("transformer_block.py", 64); }

std::vector<std::vector<rt::Value>> MlpInputs() {
  std::mt19937 rng(3);
  std::vector<float> w1 = RandomVector(784 * 128, rng), b1 = RandomVector(128, rng), w2 = RandomVector(1280, rng);
  std::vector<std::vector<rt::Value>> inputs;
  for (int64_t n : {1, 7, 300}) {
    inputs.push_back({rt::Value(rt::NDArray::FromVector<float>({n, 784}, RandomVector(n * 784, rng))),
                      rt::Value(rt::NDArray::FromVector<float>({784, 128}, w1)),
                      rt::Value(rt::NDArray::FromVector<float>({128}, b1)),
                      rt::Value(rt::NDArray::FromVector<float>({128, 10}, w2))});
  }
  return inputs;
}

TEST_F(MemoryPlanTest, ExampleMlpGivesTheSameResultsWithAndWithoutPlanning) {
  std::string text = ReadFile(std::string(RLX_SOURCE_DIR) + "/examples/mlp.py");
  ASSERT_FALSE(text.empty());
  ExpectPlanningKeepsResults(text, MlpInputs());
}

// With n <= 300 the output is in the arena too: one storage in all.
TEST_F(MemoryPlanTest, BoundedExampleMlpPacksOneArenaAndKeepsResults) {
  std::string text = BoundedExample("mlp.py", 300);
  ASSERT_FALSE(text.empty());
  std::string lowered = text::PrintModule(Lower(text, true));
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage("), 1u) << lowered;
  ExpectPlanningKeepsResults(text, MlpInputs());
}

std::vector<rt::Value> TransformerInputs(int64_t n, std::mt19937& rng) {
  std::vector<std::vector<int64_t>> shapes = {{n, 64}, {64},     {64},  {64, 64}, {64, 64}, {64, 64}, {64, 64},
                                              {64},    {64},     {64, 256}, {256}, {256, 64}, {64}};
  std::vector<rt::Value> args;
  for (const auto& shape : shapes) {
    int64_t size = 1;
    for (int64_t dim : shape) size *= dim;
    std::vector<float> values = RandomVector(static_cast<size_t>(size), rng);
    for (float& v : values) v *= 0.2f;
    args.push_back(rt::Value(rt::NDArray::FromVector<float>(shape, values)));
  }
  return args;
}

TEST_F(MemoryPlanTest, BoundedTransformerBlockPacksOneArenaAndKeepsResults) {
  std::string text = BoundedTransformerBlock();
  ASSERT_FALSE(text.empty());
  std::string lowered = text::PrintModule(Lower(text, true));
  // One arena for every intermediate and the output.
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage("), 1u) << lowered;
  std::mt19937 rng(13);
  std::vector<std::vector<rt::Value>> inputs;
  for (int64_t n : {1, 7, 64}) inputs.push_back(TransformerInputs(n, rng));
  ExpectPlanningKeepsResults(text, inputs);
}

// Several threads calling one VM at once (as ONNX Runtime's Run allows):
// each call gets an arena no other call holds, so every result equals the
// one a single-threaded run gives. Short calls (small lengths, one arena
// each) make the threads meet often in the storage cache.
TEST_F(MemoryPlanTest, ConcurrentCallsOfOneVMEachGetTheirOwnArena) {
  std::string text = SymbolicBlock(R"(R.func_attr({"tir_var_upper_bound": {"n": 16}}))");
  VMCompiled planned = CompileForVM(Lower(text, true));
  std::mt19937 rng(17);
  std::vector<std::vector<rt::Value>> inputs;
  std::vector<std::vector<float>> expected;
  for (int64_t n : {1, 2, 3, 16, 5}) {
    inputs.push_back(BlockInputs(n, rng));
    expected.push_back(Run(planned, inputs.back()));
  }
  rvm::VirtualMachine vm(planned.exec, planned.library);
  constexpr int kThreads = 4, kCallsPerThread = 1000;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int call = 0; call < kCallsPerThread; ++call) {
        size_t which = static_cast<size_t>(t + call) % inputs.size();
        rt::Value result = vm.Invoke("main", inputs[which]);
        if (result.AsNDArray().ToVector<float>() != expected[which]) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST_F(MemoryPlanTest, BoundedCallsAfterTheFirstAllocateNothingWhenTheOutputIsDropped) {
  std::string text = SymbolicBlock(R"(R.func_attr({"tir_var_upper_bound": {"n": 1024}}))");
  VMCompiled planned = CompileForVM(Lower(text, true));
  rt::PooledAllocator pool;
  rvm::VirtualMachine vm(planned.exec, planned.library, &pool);
  std::mt19937 rng(5);
  vm.Invoke("main", BlockInputs(1000, rng));
  for (int64_t n : {3, 517, 1024, 1}) {
    std::vector<rt::Value> args = BlockInputs(n, rng);
    int64_t allocs_before = pool.GetStats().total_allocs;
    rt::Value out = vm.Invoke("main", args);
    // The arena, the output's bytes included, is the VM's, kept from the
    // first call: the previous output was dropped, so it is free again.
    EXPECT_EQ(pool.GetStats().total_allocs - allocs_before, 0) << "n = " << n;
  }
}

TEST_F(MemoryPlanTest, StaticFunctionCallsAfterTheFirstAllocateNothing) {
  std::string text = SymbolicBlock("");
  for (size_t at = text.find("\"n\""); at != std::string::npos; at = text.find("\"n\"", at)) text.replace(at, 3, "8");
  text.replace(text.find("R.shape([4, n])"), 15, "R.shape([4, 8])");
  text.replace(text.find("R.shape([n, 4])"), 15, "R.shape([8, 4])");
  text.erase(text.find("n = T.int64()"), 13);
  VMCompiled planned = CompileForVM(Lower(text, true));
  rt::PooledAllocator pool;
  rvm::VirtualMachine vm(planned.exec, planned.library, &pool);
  std::mt19937 rng(9);
  std::vector<float> first = vm.Invoke("main", BlockInputs(8, rng)).AsNDArray().ToVector<float>();
  int64_t allocs_after_first = pool.GetStats().total_allocs;
  for (int call = 0; call < 3; ++call) {
    std::vector<rt::Value> args = BlockInputs(8, rng);
    std::vector<float> out = vm.Invoke("main", args).AsNDArray().ToVector<float>();
    EXPECT_EQ(out.size(), 32u);
  }
  // Every storage (the output's included, released by the caller) is reused.
  EXPECT_EQ(pool.GetStats().total_allocs, allocs_after_first);
}

TEST_F(MemoryPlanTest, AStaticStorageStillHeldIsNotReusedByTheNextCall) {
  std::string text = SymbolicBlock("");
  for (size_t at = text.find("\"n\""); at != std::string::npos; at = text.find("\"n\"", at)) text.replace(at, 3, "8");
  text.replace(text.find("R.shape([4, n])"), 15, "R.shape([4, 8])");
  text.replace(text.find("R.shape([n, 4])"), 15, "R.shape([8, 4])");
  text.erase(text.find("n = T.int64()"), 13);
  VMCompiled planned = CompileForVM(Lower(text, true));
  rvm::VirtualMachine vm(planned.exec, planned.library);
  std::mt19937 rng(9);
  std::vector<rt::Value> args1 = BlockInputs(8, rng), args2 = BlockInputs(8, rng);
  rt::NDArray out1 = vm.Invoke("main", args1).AsNDArray();
  std::vector<float> expected1 = out1.ToVector<float>();
  rt::NDArray out2 = vm.Invoke("main", args2).AsNDArray();
  EXPECT_NE(out1.data(), out2.data());  // the first output still holds its storage
  EXPECT_EQ(out1.ToVector<float>(), expected1);
}

// The output is a view of the arena: while the caller holds it, the next
// call takes a fresh arena and leaves the held output's bytes alone; once
// the caller drops it, its arena is free for the next call again.
TEST_F(MemoryPlanTest, AHeldOutputKeepsItsArenaAndTheNextCallTakesAnother) {
  std::string text = SymbolicBlock(R"(R.func_attr({"tir_var_upper_bound": {"n": 1024}}))");
  VMCompiled planned = CompileForVM(Lower(text, true));
  VMCompiled unplanned = CompileForVM(Lower(text, false));
  for (bool debug : {false, true}) {
    rt::SetMemoryDebug(debug);
    std::mt19937 rng(21);
    std::vector<rt::Value> args1 = BlockInputs(1024, rng), args2 = BlockInputs(7, rng);
    std::vector<float> expected1 = Run(unplanned, args1), expected2 = Run(unplanned, args2);
    rt::PooledAllocator pool;
    rvm::VirtualMachine vm(planned.exec, planned.library, &pool);
    rt::NDArray out1 = vm.Invoke("main", args1).AsNDArray();
    int64_t allocs = pool.GetStats().total_allocs;
    rt::NDArray out2 = vm.Invoke("main", args2).AsNDArray();
    EXPECT_EQ(pool.GetStats().total_allocs - allocs, 1) << "a fresh arena: the first is held by out1";
    EXPECT_NE(out1.storage(), out2.storage());
    EXPECT_EQ(out1.ToVector<float>(), expected1);
    EXPECT_EQ(out2.ToVector<float>(), expected2);
    out1 = rt::NDArray();
    allocs = pool.GetStats().total_allocs;
    rt::NDArray out3 = vm.Invoke("main", args1).AsNDArray();
    EXPECT_EQ(pool.GetStats().total_allocs - allocs, 0) << "the dropped output's arena is taken again";
    EXPECT_EQ(out3.ToVector<float>(), expected1);
    EXPECT_EQ(out2.ToVector<float>(), expected2);
  }
}

// x <- main(x, w) in a loop (a contraction: |x| stays <= 1): each call
// reads the previous output (a view of an arena) while writing its own, so
// two arenas alternate; the VM keeps both, and calls after the second
// allocate nothing.
constexpr const char* kStep = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 1024}})
        with R.dataflow():
            a = R.matmul(x, w)
            b = R.tanh(a)
            c = R.add(b, x)
            d = R.multiply(c, R.const(0.5, "float32"))
            R.output(d)
        return d
)";

TEST_F(MemoryPlanTest, FeedingEachOutputBackAlternatesBetweenTwoArenas) {
  VMCompiled planned = CompileForVM(Lower(kStep, true));
  VMCompiled unplanned = CompileForVM(Lower(kStep, false));
  std::mt19937 rng(23);
  std::vector<rt::Value> start = BlockInputs(100, rng);
  for (bool debug : {false, true}) {
    rt::SetMemoryDebug(debug);
    rt::PooledAllocator pool;
    rvm::VirtualMachine vm(planned.exec, planned.library, &pool);
    rvm::VirtualMachine reference(unplanned.exec, unplanned.library);
    rt::Value x = start[0], expected = start[0];
    for (int call = 0; call < 6; ++call) {
      int64_t allocs = pool.GetStats().total_allocs;
      x = vm.Invoke("main", {x, start[1]});
      if (call >= 2) {
        EXPECT_EQ(pool.GetStats().total_allocs - allocs, 0) << "call " << call;
      }
      expected = reference.Invoke("main", {expected, start[1]});
      EXPECT_EQ(x.AsNDArray().ToVector<float>(), expected.AsNDArray().ToVector<float>()) << "call " << call;
    }
  }
}

// Two bounded outputs in a tuple, one of them a reshape's view, both in the
// arena: the same values with planning on and off, and a held tuple keeps
// its values across the next call.
constexpr const char* kTupleOutputs = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor((4, "n"), dtype="float32"), R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 64}})
        with R.dataflow():
            a = R.matmul(x, w)
            b = R.add(a, x)
            c = R.multiply(b, a)
            d = R.reshape(c, R.shape([4, n]))
            e = R.subtract(b, c)
            R.output(d, e)
        return (e, d, x)
)";

std::vector<std::vector<float>> RunTuple(const VMCompiled& compiled, const std::vector<rt::Value>& args,
                                         rvm::VirtualMachine* vm = nullptr) {
  std::unique_ptr<rvm::VirtualMachine> own;
  if (vm == nullptr) {
    own = std::make_unique<rvm::VirtualMachine>(compiled.exec, compiled.library);
    vm = own.get();
  }
  rt::Value result = vm->Invoke("main", args);
  std::vector<std::vector<float>> fields;
  for (const rt::Value& field : result.AsArray()) fields.push_back(field.AsNDArray().ToVector<float>());
  return fields;
}

TEST_F(MemoryPlanTest, TupleOutputsInTheArenaKeepTheirValues) {
  std::string lowered = text::PrintModule(Lower(kTupleOutputs, true));
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage("), 1u) << lowered;
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage(R.shape([3072])"), 1u) << lowered;  // a, b and c at n = 64
  VMCompiled planned = CompileForVM(Lower(kTupleOutputs, true));
  VMCompiled unplanned = CompileForVM(Lower(kTupleOutputs, false));
  std::mt19937 rng(17);
  for (bool debug : {false, true}) {
    rt::SetMemoryDebug(debug);
    rvm::VirtualMachine vm(planned.exec, planned.library);
    std::vector<rt::Value> first = BlockInputs(64, rng);
    rt::Value held = vm.Invoke("main", first);
    std::vector<std::vector<float>> expected_first = RunTuple(unplanned, first);
    for (int64_t n : {1, 7, 64}) {
      std::vector<rt::Value> args = BlockInputs(n, rng);
      EXPECT_EQ(RunTuple(planned, args, &vm), RunTuple(unplanned, args)) << "n = " << n;
    }
    for (size_t i = 0; i < expected_first.size(); ++i) {
      EXPECT_EQ(held.AsArray()[i].AsNDArray().ToVector<float>(), expected_first[i]);
    }
  }
}

// main(x, k) = main(2x, k - 1) + x, main(x, 0) = 2x: each level's output
// (constant shape, in the arena) is written while the level below's output,
// from the same allocation site, is held: the VM must give it a fresh arena.
constexpr const char* kRecursive = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), k: R.Tensor((), dtype="int64")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        c = R.greater(k, R.const(0, "int64"))
        if c:
            k1 = R.subtract(k, R.const(1, "int64"))
            x2 = R.multiply(x, R.const(2, "float32"))
            r = cls.main(x2, k1)
        else:
            r = x
        y = R.add(r, x)
        z = R.multiply(y, R.const(1, "float32"))
        return z
)";

TEST_F(MemoryPlanTest, RecursiveCallsHoldingTheInnerOutputGetTheirOwnArena) {
  VMCompiled planned = CompileForVM(Lower(kRecursive, true));
  for (bool debug : {false, true}) {
    rt::SetMemoryDebug(debug);
    rvm::VirtualMachine vm(planned.exec, planned.library);
    auto call = [&](int64_t k) {
      return vm.Invoke("main", {rt::Value(rt::NDArray::FromVector<float>({4}, {1, 2, 3, 4})),
                                rt::Value(rt::NDArray::FromVector<int64_t>({}, {k}))});
    };
    rt::NDArray held = call(2).AsNDArray();  // 11x: 2x at k = 0, 5x at 1
    EXPECT_EQ(held.ToVector<float>(), (std::vector<float>{11, 22, 33, 44}));
    EXPECT_EQ(call(3).AsNDArray().ToVector<float>(), (std::vector<float>{23, 46, 69, 92}));
    EXPECT_EQ(call(0).AsNDArray().ToVector<float>(), (std::vector<float>{2, 4, 6, 8}));
    EXPECT_EQ(held.ToVector<float>(), (std::vector<float>{11, 22, 33, 44}));
  }
}

// Hand-written plans: `a` at [0, 16) of a storage, then `b` at OFFSET with
// `a` still alive (add_one(a, b)), then `c` at [0, 16) once `a` is dead;
// `accumulate` reads its output before writing it.
constexpr const char* kHandPlan = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("add"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[vi] + T.float32(1)

    @T.prim_func(private=True)
    def accumulate(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("acc"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = y[vi] + x[vi]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        _ = cls.add_one(x, a)
        b = R.memory.alloc_tensor(storage, R.prim_value(OFFSET), R.shape([4]), R.dtype("float32"))
        _1 = cls.add_one(a, b)
        c = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        _2 = cls.accumulate(b, c)
        out = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.add_one(c, out)
        return out
)";

std::string HandPlan(const std::string& offset) {
  std::string text = kHandPlan;
  text.replace(text.find("OFFSET"), 6, offset);
  return text;
}

// Compile-time verification off, even in the memory debug mode: the
// run-time verifier is what these tests check.
VMCompiled CompileHandPlan(const std::string& offset) {
  transform::PassContext ctx;
  ctx.config = ir::DictWith(ctx.config, transform::kVerifyMemoryPlanConfig, ir::MakeInt(0, DataType::Bool()));
  return CompileForVM(transform::DefaultPipeline()(text::ParseModuleText(HandPlan(offset)), ctx));
}

std::vector<rt::Value> HandPlanInputs() { return {rt::Value(rt::NDArray::FromVector<float>({4}, {1, 2, 3, 4}))}; }

TEST_F(MemoryPlanTest, VerifierRejectsTwoLiveTensorsSharingBytes) {
  VMCompiled compiled = CompileHandPlan("8");  // b at [8, 24) overlaps the live a at [0, 16)
  rt::SetMemoryDebug(false);
  EXPECT_NO_THROW(Run(compiled, HandPlanInputs()));  // silently wrong without the verifier
  rt::SetMemoryDebug(true);
  try {
    Run(compiled, HandPlanInputs());
    FAIL() << "expected the verifier to reject the plan";
  } catch (const rt::RuntimeError& error) {
    EXPECT_THAT(error.what(), HasSubstr("memory plan verifier: tensor (4,) float32 at bytes [8, 24) of its storage "
                                        "overlaps the live tensor (4,) float32 at bytes [0, 16)"));
  }
}

TEST_F(MemoryPlanTest, CompileTimeVerificationRejectsOverlappingLiveTensors) {
  transform::PassContext ctx = VerifyingContext();
  try {
    transform::DefaultPipeline()(text::ParseModuleText(HandPlan("8")), ctx);
    FAIL() << "expected the plan verification to fail";
  } catch (const CompileError& error) {
    EXPECT_THAT(error.what(), HasSubstr("memory plan verification: tensors a and b share bytes of storage storage "
                                        "but are alive at the same time"));
  }
  // Disjoint byte ranges of one storage, or one tensor after the other, pass.
  EXPECT_NO_THROW(transform::DefaultPipeline()(text::ParseModuleText(HandPlan("16")), ctx));
}

TEST_F(MemoryPlanTest, ReleasedBytesAreNaNForAKernelThatReadsBeforeWriting) {
  VMCompiled compiled = CompileHandPlan("16");  // disjoint: a valid plan
  rt::SetMemoryDebug(false);
  // c starts with a's stale bytes x + 1: out = (x + 1) + (x + 2) + 1.
  EXPECT_EQ(Run(compiled, HandPlanInputs()), (std::vector<float>{6, 8, 10, 12}));
  rt::SetMemoryDebug(true);
  // a was dead when c took its bytes: they were filled with NaN.
  for (float v : Run(compiled, HandPlanInputs())) EXPECT_TRUE(std::isnan(v));
}

TEST_F(MemoryPlanTest, StorageReturnedToThePoolIsFilledWithNaN) {
  rt::SetMemoryDebug(true);
  rt::PooledAllocator pool;
  auto storage = rt::Storage::Create(64, rt::Device::CPU(), &pool);
  void* data = storage->data();
  std::memset(data, 0, 64);
  storage.reset();
  auto again = rt::Storage::Create(64, rt::Device::CPU(), &pool);
  ASSERT_EQ(again->data(), data);  // the pool hands the same block back
  float first = 0;
  std::memcpy(&first, again->data(), sizeof(float));
  EXPECT_TRUE(std::isnan(first));
}

}  // namespace
}  // namespace rlx::codegen
