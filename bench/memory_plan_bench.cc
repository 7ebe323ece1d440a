// Memory planning, measured (not a test): bytes allocated per call of a
// symbolic-length block with static-plan-block-memory on (with the upper
// bound n <= 1024 of "tir_var_upper_bound", and without it) and off,
// against the lower bound, the largest total size of the tensors alive at
// once, the output included.
//
//   build/bin/memory_plan_bench
//
// Each configuration runs on the VM with a counting allocator that records
// the exact requested bytes: "allocated" is the sum of the requests of the
// first call of a VM, "peak" the largest total requested bytes live at once
// during it; then the allocator calls of calls 2..5 when the caller drops
// each output before the next call (static storage, the packed arena with
// the output in it, is kept by the VM and not allocated again), and the
// allocator calls per call when the caller keeps every output (a kept
// output holds its arena, so the next call needs another). The lower bound
// is measured as the unplanned peak: without planning every tensor, the
// output included, has a storage of its own, allocated right before the
// kernel that writes it and freed right after its last use
// (kill-after-last-use), so the peak of live requested bytes is the largest
// total size of the tensors alive at once (plus the shape heap) for this
// kernel order. The pooled allocator's counters (fresh blocks vs pool hits
// over 20 calls with varying n) show what planning saves in a long-running
// process.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/op/op.h"
#include "rlx/runtime/allocator.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/transform/pipeline.h"

namespace {

namespace rt = rlx::runtime;

constexpr const char* kBlock = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 64), dtype="float32"), w: R.Tensor((64, 64), dtype="float32")) -> R.Tensor(("n", 64), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 1024}})
        with R.dataflow():
            a = R.matmul(x, w)
            b = R.add(a, x)
            c = R.multiply(b, a)
            d = R.matmul(c, w)
            e = R.subtract(d, b)
            f = R.nn.relu(e)
            g = R.matmul(f, w)
            h = R.add(g, c)
            i = R.multiply(h, h)
            j = R.add(i, x)
            R.output(j)
        return j
)";

// Exact requested bytes: live, peak and the sum of one call's requests.
class CountingAllocator final : public rt::Allocator {
 public:
  rt::Buffer Alloc(size_t nbytes) override {
    size_t rounded = (nbytes + rt::kAllocAlignment - 1) / rt::kAllocAlignment * rt::kAllocAlignment;
    void* data = std::aligned_alloc(rt::kAllocAlignment, rounded == 0 ? rt::kAllocAlignment : rounded);
    live_ += static_cast<int64_t>(nbytes);
    allocated_ += static_cast<int64_t>(nbytes);
    peak_ = std::max(peak_, live_);
    ++allocs_;
    requested_[data] = nbytes;
    return rt::Buffer{data, rounded, rt::Device::CPU()};
  }
  void Free(const rt::Buffer& buffer) override {
    live_ -= static_cast<int64_t>(requested_.at(buffer.data));
    requested_.erase(buffer.data);
    std::free(buffer.data);
  }
  rt::Device device() const override { return rt::Device::CPU(); }
  Stats GetStats() const override { return Stats{live_, peak_, allocs_, 0, 0}; }

  void StartCall() {
    allocated_ = 0;
    allocs_ = 0;
    peak_ = live_;
  }
  int64_t allocated() const { return allocated_; }
  int64_t peak_above(int64_t base) const { return peak_ - base; }
  int64_t live() const { return live_; }
  int64_t allocs() const { return allocs_; }

 private:
  int64_t live_ = 0, peak_ = 0, allocated_ = 0, allocs_ = 0;
  std::unordered_map<void*, size_t> requested_;
};

// The block without its upper bound: planned storage keeps symbolic sizes.
std::string WithoutUpperBound() {
  std::string text = kBlock;
  const std::string attr = R"(R.func_attr({"tir_var_upper_bound": {"n": 1024}}))";
  text.erase(text.find(attr), attr.size());
  return text;
}

rlx::codegen::VMCompiled Compile(bool plan, const std::string& text = kBlock) {
  rlx::transform::PassContext ctx;
  if (!plan) ctx.disabled_passes = {"static-plan-block-memory", "rewrite-dataflow-reshape"};
  return rlx::codegen::CompileForVM(rlx::transform::DefaultPipeline()(rlx::text::ParseModuleText(text), ctx));
}

std::vector<rt::Value> Inputs(int64_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(static_cast<size_t>(n * 64)), w(64 * 64);
  for (float& v : x) v = dist(rng);
  for (float& v : w) v = dist(rng) * 0.1f;
  return {rt::Value(rt::NDArray::FromVector<float>({n, 64}, x)), rt::Value(rt::NDArray::FromVector<float>({64, 64}, w))};
}

struct CallBytes {
  int64_t allocated, peak, allocs;
};

// The first call of a VM, then the allocator calls of calls 2..5 with each
// output dropped, then those of one call while all earlier outputs are kept.
struct Calls {
  CallBytes first;
  int64_t later_dropped_allocs = 0;
  int64_t kept_allocs = 0;
};

CallBytes MeasureCall(rt::vm::VirtualMachine& vm, CountingAllocator& counter, const std::vector<rt::Value>& args,
                      std::vector<rt::Value>* kept = nullptr) {
  counter.StartCall();
  int64_t base = counter.live();
  rt::Value out = vm.Invoke("main", args);
  if (kept != nullptr) kept->push_back(out);
  return {counter.allocated(), counter.peak_above(base), counter.allocs()};
}

Calls Measure(const rlx::codegen::VMCompiled& compiled, const std::vector<rt::Value>& args) {
  CountingAllocator counter;
  rt::vm::VirtualMachine vm(compiled.exec, compiled.library, &counter);
  Calls calls;
  calls.first = MeasureCall(vm, counter, args);
  for (int call = 2; call <= 5; ++call) calls.later_dropped_allocs += MeasureCall(vm, counter, args).allocs;
  std::vector<rt::Value> kept;
  MeasureCall(vm, counter, args, &kept);
  MeasureCall(vm, counter, args, &kept);
  calls.kept_allocs = MeasureCall(vm, counter, args, &kept).allocs;
  return calls;
}

Calls Measure(const rlx::codegen::VMCompiled& compiled, int64_t n) {
  std::mt19937 rng(1);
  return Measure(compiled, Inputs(n, rng));
}

void PrintPool(const char* name, const rlx::codegen::VMCompiled& compiled) {
  rt::PooledAllocator pool;
  rt::vm::VirtualMachine vm(compiled.exec, compiled.library, &pool);
  std::mt19937 rng(2);
  for (int call = 0; call < 20; ++call) vm.Invoke("main", Inputs(1 + (call * 97) % 1024, rng));
  rt::Allocator::Stats stats = pool.GetStats();
  std::printf("%-10s pooled allocator over 20 calls (n = 1 + 97k mod 1024): %lld allocations, %lld fresh blocks, "
              "%lld pool hits, %lld bytes cached at the end\n",
              name, static_cast<long long>(stats.total_allocs),
              static_cast<long long>(stats.total_allocs - stats.pool_hits), static_cast<long long>(stats.pool_hits),
              static_cast<long long>(stats.cached_bytes));
}

// The peak of the planned block against the lower bound at n = 1024, with
// the passes in `disabled` off as well (dispatch-library: every matmul a
// TIR kernel, fused with its epilogue).
void PrintRatioWithout(const std::string& disabled) {
  rlx::transform::PassContext planned_ctx;
  planned_ctx.disabled_passes = {disabled};
  rlx::transform::PassContext unplanned_ctx;
  unplanned_ctx.disabled_passes = {disabled, "static-plan-block-memory", "rewrite-dataflow-reshape"};
  auto compile = [](const rlx::transform::PassContext& ctx) {
    return rlx::codegen::CompileForVM(rlx::transform::DefaultPipeline()(rlx::text::ParseModuleText(kBlock), ctx));
  };
  Calls planned = Measure(compile(planned_ctx), 1024);
  Calls unplanned = Measure(compile(unplanned_ctx), 1024);
  std::printf("without %s, n = 1024: planned peak %lld, lower bound %lld, ratio %.3f, allocator calls of calls "
              "2..5 %lld\n",
              disabled.c_str(), static_cast<long long>(planned.first.peak),
              static_cast<long long>(unplanned.first.peak),
              static_cast<double>(planned.first.peak) / static_cast<double>(unplanned.first.peak),
              static_cast<long long>(planned.later_dropped_allocs));
}

// examples/transformer_block.py with its sequence length n bounded by 64,
// planned and unplanned: peak against the lower bound, and the allocator
// calls of calls 2..5.
void PrintTransformerBlock() {
  std::ifstream in(std::string(RLX_SOURCE_DIR) + "/examples/transformer_block.py");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  const std::string decl = "n = T.int64()\n";
  size_t at = text.find(decl, text.find("def main("));
  if (at == std::string::npos) return;
  text.insert(at + decl.size(), "        R.func_attr({\"tir_var_upper_bound\": {\"n\": 64}})\n");
  rlx::codegen::VMCompiled planned = Compile(true, text);
  rlx::codegen::VMCompiled unplanned = Compile(false, text);
  for (int64_t n : {1, 33, 64}) {
    std::vector<std::vector<int64_t>> shapes = {{n, 64}, {64},  {64},     {64, 64}, {64, 64}, {64, 64}, {64, 64},
                                                {64},    {64},  {64, 256}, {256},   {256, 64}, {64}};
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> dist(-0.2f, 0.2f);
    std::vector<rt::Value> args;
    for (const auto& shape : shapes) {
      int64_t size = 1;
      for (int64_t dim : shape) size *= dim;
      std::vector<float> values(static_cast<size_t>(size));
      for (float& v : values) v = dist(rng);
      args.emplace_back(rt::NDArray::FromVector<float>(shape, values));
    }
    Calls with = Measure(planned, args);
    Calls without = Measure(unplanned, args);
    std::printf("transformer block, n = %2lld (n <= 64): planned peak %lld, lower bound %lld, ratio %.3f; allocator "
                "calls of calls 2..5: planned %lld, unplanned %lld\n",
                static_cast<long long>(n), static_cast<long long>(with.first.peak),
                static_cast<long long>(without.first.peak),
                static_cast<double>(with.first.peak) / static_cast<double>(without.first.peak),
                static_cast<long long>(with.later_dropped_allocs), static_cast<long long>(without.later_dropped_allocs));
  }
}

}  // namespace

int main() {
  rlx::op::RegisterAllOps();
  rlx::codegen::VMCompiled planned = Compile(true);
  rlx::codegen::VMCompiled symbolic = Compile(true, WithoutUpperBound());
  rlx::codegen::VMCompiled unplanned = Compile(false);
  std::printf("block: 10 ops on (n, 64) float32; first call of a VM: bytes requested (alloc), most bytes live at "
              "once (peak), allocator calls; then allocator calls of calls 2..5 (outputs dropped), and of one call "
              "while the earlier outputs are kept\n");
  std::printf("%6s | %-44s | %-44s | %-44s | %11s | %s\n", "n", "planned, n <= 1024", "planned, no bound",
              "unplanned", "lower bound", "peak / lower bound (n <= 1024)");
  for (int64_t n : {1, 7, 128, 1000, 1024}) {
    std::printf("%6lld", static_cast<long long>(n));
    int64_t bounded_peak = 0;
    int64_t lower_bound = 0;
    for (const auto* compiled : {&planned, &symbolic, &unplanned}) {
      Calls calls = Measure(*compiled, n);
      if (compiled == &planned) bounded_peak = calls.first.peak;
      if (compiled == &unplanned) lower_bound = calls.first.peak;
      std::printf(" | %11lld %11lld %6lld %6lld %6lld", static_cast<long long>(calls.first.allocated),
                  static_cast<long long>(calls.first.peak), static_cast<long long>(calls.first.allocs),
                  static_cast<long long>(calls.later_dropped_allocs), static_cast<long long>(calls.kept_allocs));
    }
    std::printf(" | %11lld | %.3f\n", static_cast<long long>(lower_bound),
                static_cast<double>(bounded_peak) / static_cast<double>(lower_bound));
  }
  PrintRatioWithout("dispatch-library");
  PrintTransformerBlock();
  PrintPool("planned", planned);
  PrintPool("no bound", symbolic);
  PrintPool("unplanned", unplanned);
  return 0;
}
