// Elementwise bandwidth: `R.add` of two 16M-element float32 tensors compiled
// by rlx (legalize-ops -> PrimFunc -> codegen::JitModule, whose lowering runs
// the default CPU schedule and LowerForCodegen), against a plain C++ copy
// kernel measured in the same run, both with the same thread count (2 unless
// RLX_NUM_THREADS says otherwise).
//
// Target (issue "End-to-end execution, speed point"): the add reaches at
// least 80% of the copy kernel's bandwidth. Bandwidth counts the bytes the
// kernel must move: 2 arrays x 64 MiB per copy, 3 arrays x 64 MiB per add
// (write-allocate traffic is not counted for either).
//
// Counters: GB/s (10^9 bytes per second, wall clock), copy_GB/s (the median
// of kCopyRepetitions copies, measured once per process), ratio_to_copy and
// threads. Run with --benchmark_repetitions=N to get medians; see
// docs/performance.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "rlx/codegen/jit.h"
#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"
#include "rlx/op/op.h"
#include "rlx/runtime/ndarray.h"
#include "rlx/runtime/threading.h"
#include "rlx/text/parser.h"
#include "rlx/transform/passes.h"

namespace {

using namespace rlx;

constexpr int64_t kElements = int64_t{1} << 24;  // 16M float32 = 64 MiB
constexpr int64_t kArrayBytes = kElements * 4;
constexpr int kCopyRepetitions = 11;

runtime::NDArray Filled(float value) {
  runtime::NDArray array = runtime::NDArray::Empty({kElements}, runtime::DataType::Float(32));
  auto* data = static_cast<float*>(array.data());
  runtime::parallel_for(0, kElements, [&](int64_t lo, int64_t hi) { std::fill(data + lo, data + hi, value); });
  return array;
}

void CopyKernel(const float* src, float* dst) {
  runtime::parallel_for(0, kElements, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) dst[i] = src[i];
  });
}

// Bytes per second of the copy kernel: the median of kCopyRepetitions runs
// (after one warm-up), measured on first use.
double CopyBandwidth() {
  static const double bandwidth = [] {
    runtime::NDArray src = Filled(1.0f), dst = Filled(0.0f);
    const auto* s = static_cast<const float*>(src.data());
    auto* d = static_cast<float*>(dst.data());
    CopyKernel(s, d);
    std::vector<double> rates;
    for (int r = 0; r < kCopyRepetitions; ++r) {
      auto start = std::chrono::steady_clock::now();
      CopyKernel(s, d);
      std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
      rates.push_back(2.0 * kArrayBytes / seconds.count());
    }
    std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
    return rates[rates.size() / 2];
  }();
  return bandwidth;
}

// The PrimFunc legalize-ops makes for `R.add` of two tensors of `shape`.
tir::PrimFunc LegalizedAdd(const std::string& shape) {
  op::RegisterAllOps();
  std::string type = "R.Tensor(" + shape + ", dtype=\"float32\")";
  std::string text = "@I.ir_module\nclass Module:\n    @R.function\n    def main(x: " + type + ", y: " + type +
                     "):\n        gv = R.add(x, y)\n        return gv\n";
  ir::IRModule mod = text::ParseModuleText(text);
  transform::PassContext context;
  mod = transform::LegalizeOps()(mod, context);
  for (const auto& [gv, func] : mod->functions) {
    if (auto prim = dyn_cast<tir::PrimFuncNode>(func)) return prim;
  }
  return tir::PrimFunc();
}

void ReportBandwidth(benchmark::State& state, double bytes_per_iteration) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes_per_iteration));
  double copy = CopyBandwidth();
  state.counters["GB/s"] = benchmark::Counter(state.iterations() * bytes_per_iteration / 1e9,
                                              benchmark::Counter::kIsRate);
  state.counters["copy_GB/s"] = copy / 1e9;
  state.counters["threads"] = runtime::NumThreads();
}

void BM_CopyKernel(benchmark::State& state) {
  runtime::NDArray src = Filled(1.0f), dst = Filled(0.0f);
  const auto* s = static_cast<const float*>(src.data());
  auto* d = static_cast<float*>(dst.data());
  for (auto _ : state) {
    CopyKernel(s, d);
    benchmark::ClobberMemory();
  }
  ReportBandwidth(state, 2.0 * kArrayBytes);
}

// `shape` holds kElements elements; `schedule` toggles the default CPU
// schedule (CodegenOptions::schedule) to show what it is worth.
void RunAdd(benchmark::State& state, const std::string& shape, const std::vector<int64_t>& dims, bool schedule) {
  codegen::CodegenOptions options;
  options.schedule = schedule;
  runtime::Module module = codegen::JitModule::CompileToModule({{"add", LegalizedAdd(shape)}}, options);
  runtime::PackedFunc add = module.GetRequiredFunction("add");
  runtime::DataType f32 = runtime::DataType::Float(32);
  runtime::NDArray x = Filled(1.0f).CreateView(dims, f32), y = Filled(2.0f).CreateView(dims, f32);
  runtime::NDArray out = Filled(0.0f).CreateView(dims, f32);
  add(x, y, out);  // warm-up: pages touched, code resident
  if (static_cast<const float*>(out.data())[kElements - 1] != 3.0f) state.SkipWithError("wrong result");
  for (auto _ : state) {
    add(x, y, out);
    benchmark::ClobberMemory();
  }
  ReportBandwidth(state, 3.0 * kArrayBytes);
  // (bytes / copy bandwidth) / elapsed = add bandwidth / copy bandwidth
  state.counters["ratio_to_copy"] =
      benchmark::Counter(state.iterations() * 3.0 * kArrayBytes / CopyBandwidth(), benchmark::Counter::kIsRate);
}

void BM_Add1D(benchmark::State& state) { RunAdd(state, "(16777216,)", {kElements}, true); }
void BM_Add2D(benchmark::State& state) { RunAdd(state, "(4096, 4096)", {4096, 4096}, true); }
void BM_Add1DUnscheduled(benchmark::State& state) { RunAdd(state, "(16777216,)", {kElements}, false); }

BENCHMARK(BM_CopyKernel)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Add1D)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Add2D)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Add1DUnscheduled)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  // Two threads unless RLX_NUM_THREADS chooses.
  if (std::getenv("RLX_NUM_THREADS") == nullptr) rlx::runtime::SetNumThreads(2);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
