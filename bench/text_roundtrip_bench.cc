// Speed of the text front end on a large module: parsing (which normalizes
// and deduces struct info for every binding through the BlockBuilder),
// re-normalizing with the `normalize` pass, and printing. The goal from the
// foundation issue: a module of 10,000 bindings parses, normalizes and prints
// in under a second.
//
//   BM_Parse/N       text → IRModule (deduction included)
//   BM_Normalize/N   the normalize pass over the parsed module
//   BM_Print/N       IRModule → text
//   BM_RoundTrip/N   all three
// N is the number of bindings; items_per_second is bindings per second.
#include <benchmark/benchmark.h>

#include <string>

#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/pass.h"
#include "rlx/transform/passes.h"

namespace {

// A chain of `bindings` symbolic-shape operations in one dataflow block,
// cycling through a few operators so several deduction rules run.
std::string MakeModuleText(int bindings) {
  std::string text =
      "@I.ir_module\n"
      "class Module:\n"
      "    @R.function\n"
      "    def main(x: R.Tensor((\"n\", 64), dtype=\"float32\"), w: R.Tensor((64, 64), dtype=\"float32\")) "
      "-> R.Tensor((\"n\", 64), dtype=\"float32\"):\n"
      "        n = T.int64()\n"
      "        with R.dataflow():\n"
      "            v0 = R.add(x, x)\n";
  const char* ops[] = {"R.add(v{}, x)", "R.multiply(v{}, v{})", "R.nn.relu(v{})", "R.matmul(v{}, w)", "R.exp(v{})"};
  for (int i = 1; i < bindings; ++i) {
    std::string prev = "v" + std::to_string(i - 1);
    std::string op = ops[i % 5];
    std::string expr;
    for (size_t p = 0; p < op.size(); ++p) {
      if (op.compare(p, 3, "v{}") == 0) {
        expr += prev;
        p += 2;
      } else {
        expr += op[p];
      }
    }
    text += "            v" + std::to_string(i) + " = " + expr + "\n";
  }
  text += "            R.output(v" + std::to_string(bindings - 1) + ")\n";
  text += "        return v" + std::to_string(bindings - 1) + "\n";
  return text;
}

void BM_Parse(benchmark::State& state) {
  rlx::op::RegisterAllOps();
  std::string text = MakeModuleText(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(rlx::text::ParseModuleText(text, "bench.py"));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_Normalize(benchmark::State& state) {
  rlx::op::RegisterAllOps();
  rlx::ir::IRModule mod = rlx::text::ParseModuleText(MakeModuleText(static_cast<int>(state.range(0))), "bench.py");
  rlx::transform::Pass normalize = rlx::transform::Normalize();
  rlx::transform::PassContext ctx;
  for (auto _ : state) benchmark::DoNotOptimize(normalize(mod, ctx));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_Print(benchmark::State& state) {
  rlx::op::RegisterAllOps();
  rlx::ir::IRModule mod = rlx::text::ParseModuleText(MakeModuleText(static_cast<int>(state.range(0))), "bench.py");
  for (auto _ : state) benchmark::DoNotOptimize(rlx::text::PrintModule(mod));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_RoundTrip(benchmark::State& state) {
  rlx::op::RegisterAllOps();
  std::string text = MakeModuleText(static_cast<int>(state.range(0)));
  rlx::transform::Pass normalize = rlx::transform::Normalize();
  rlx::transform::PassContext ctx;
  for (auto _ : state) {
    rlx::ir::IRModule mod = rlx::text::ParseModuleText(text, "bench.py");
    benchmark::DoNotOptimize(rlx::text::PrintModule(normalize(mod, ctx)));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_Parse)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Normalize)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Print)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RoundTrip)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
