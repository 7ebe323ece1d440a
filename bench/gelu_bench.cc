// gelu and erf throughput: `R.nn.gelu` and `R.erf` on 4M float32 elements
// compiled by rlx (legalize-ops -> PrimFunc -> codegen::JitModule with the
// default CPU schedule, so the loop is vectorized and the erf is the inline
// float32 approximation of codegen_llvm_fast_math.cc), against the same
// formulas as a plain C++ loop calling libm's erff, split over the same
// threads (2 unless RLX_NUM_THREADS says otherwise) by runtime::parallel_for.
// Counter: items_per_second (elements). See docs/performance.md.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <string>

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

constexpr int64_t kElements = int64_t{1} << 22;

runtime::NDArray Ramp() {
  runtime::NDArray array = runtime::NDArray::Empty({kElements}, runtime::DataType::Float(32));
  auto* data = static_cast<float*>(array.data());
  for (int64_t i = 0; i < kElements; ++i) data[i] = static_cast<float>(i % 2001 - 1000) * 0.004f;
  return array;
}

// The PrimFunc legalize-ops makes for `call` (e.g. "R.nn.gelu(x)") on x of kElements.
tir::PrimFunc Legalized(const std::string& call) {
  op::RegisterAllOps();
  std::string text = "@I.ir_module\nclass Module:\n    @R.function\n    def main(x: R.Tensor((" +
                     std::to_string(kElements) + ",), dtype=\"float32\")):\n        gv = " + call +
                     "\n        return gv\n";
  ir::IRModule mod = text::ParseModuleText(text);
  transform::PassContext context;
  mod = transform::LegalizeOps()(mod, context);
  for (const auto& [gv, func] : mod->functions) {
    if (auto prim = dyn_cast<tir::PrimFuncNode>(func)) return prim;
  }
  return tir::PrimFunc();
}

void RunCompiled(benchmark::State& state, const std::string& call) {
  runtime::Module module = codegen::JitModule::CompileToModule({{"kernel", Legalized(call)}});
  runtime::PackedFunc kernel = module.GetRequiredFunction("kernel");
  runtime::NDArray x = Ramp();
  runtime::NDArray out = runtime::NDArray::Empty({kElements}, runtime::DataType::Float(32));
  kernel(x, out);
  for (auto _ : state) {
    kernel(x, out);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}

template <typename F>
void RunLibm(benchmark::State& state, F f) {
  runtime::NDArray x = Ramp();
  runtime::NDArray out = runtime::NDArray::Empty({kElements}, runtime::DataType::Float(32));
  const auto* in = static_cast<const float*>(x.data());
  auto* y = static_cast<float*>(out.data());
  for (auto _ : state) {
    runtime::parallel_for(0, kElements, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) y[i] = f(in[i]);
    });
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}

void BM_GeluCompiled(benchmark::State& state) { RunCompiled(state, "R.nn.gelu(x)"); }
void BM_GeluLibmErff(benchmark::State& state) {
  RunLibm(state, [](float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678f)); });
}
void BM_ErfCompiled(benchmark::State& state) { RunCompiled(state, "R.erf(x)"); }
void BM_ErfLibmErff(benchmark::State& state) { RunLibm(state, [](float v) { return erff(v); }); }

BENCHMARK(BM_GeluCompiled)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GeluLibmErff)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ErfCompiled)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ErfLibmErff)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (std::getenv("RLX_NUM_THREADS") == nullptr) rlx::runtime::SetNumThreads(2);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
