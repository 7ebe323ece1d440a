// End-to-end tests of memory planning: modules through the default pipeline
// (rewrite-dataflow-reshape, static-plan-block-memory, ...) and the VM, with
// planning on and off (both passes disabled), and with the run-time
// memory-plan verifier and NaN fill (rlx/runtime/memory_debug.h) on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

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
  // The intermediates are packed into one arena of static size; the output
  // keeps a storage of its own.
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage("), 2u) << lowered;
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
  // Later calls with other lengths take only the output's block anew (at most
  // one fresh block per call, for its size class); the planned storage all
  // comes from the pool.
  EXPECT_LE(stats.total_allocs - stats.pool_hits, first_allocs + 3);
  EXPECT_GT(stats.pool_hits, 0);
}

TEST_F(MemoryPlanTest, ExampleMlpGivesTheSameResultsWithAndWithoutPlanning) {
  std::string text = ReadFile(std::string(RLX_SOURCE_DIR) + "/examples/mlp.py");
  ASSERT_FALSE(text.empty());
  std::mt19937 rng(3);
  std::vector<float> w1 = RandomVector(784 * 128, rng), b1 = RandomVector(128, rng), w2 = RandomVector(1280, rng);
  std::vector<std::vector<rt::Value>> inputs;
  for (int64_t n : {1, 7, 300}) {
    inputs.push_back({rt::Value(rt::NDArray::FromVector<float>({n, 784}, RandomVector(n * 784, rng))),
                      rt::Value(rt::NDArray::FromVector<float>({784, 128}, w1)),
                      rt::Value(rt::NDArray::FromVector<float>({128}, b1)),
                      rt::Value(rt::NDArray::FromVector<float>({128, 10}, w2))});
  }
  ExpectPlanningKeepsResults(text, inputs);
}

// examples/transformer_block.py with the sequence length bounded by 64.
std::string BoundedTransformerBlock() {
  std::string text = ReadFile(std::string(RLX_SOURCE_DIR) + "/examples/transformer_block.py");
  const std::string decl = "n = T.int64()\n";
  size_t at = text.find(decl);
  if (at == std::string::npos) return "";
  text.insert(at + decl.size(), "        R.func_attr({\"tir_var_upper_bound\": {\"n\": 64}})\n");
  return text;
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
  // One arena for every intermediate, one storage for the output.
  EXPECT_EQ(Count(lowered, "R.vm.alloc_storage("), 2u) << lowered;
  std::mt19937 rng(13);
  std::vector<std::vector<rt::Value>> inputs;
  for (int64_t n : {1, 7, 64}) inputs.push_back(TransformerInputs(n, rng));
  ExpectPlanningKeepsResults(text, inputs);
}

TEST_F(MemoryPlanTest, BoundedCallsAfterTheFirstAllocateOnlyTheirOutput) {
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
    // The arena is the VM's, kept from the first call; only the output (of
    // symbolic shape, never planned) is allocated.
    EXPECT_EQ(pool.GetStats().total_allocs - allocs_before, 1) << "n = " << n;
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
