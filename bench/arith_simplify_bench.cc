// Throughput of the integer analyzer on the expressions shape deduction and
// passes produce: convolution and pooling output sizes, reshape products,
// flattened indices, tiling (ceil-div) sizes, concat/split extents, clamps.
//
//   BM_SimplifyShapeBatch      Simplify on a batch of raw shape expressions
//   BM_SimplifyCanonicalBatch  Simplify on already-simplified ones (the common
//                              case inside passes: should be cheaper)
//   BM_CanProveBatch           CanProve on the comparisons struct-info
//                              deduction asks (equal dims, in-bounds, ordered)
//   BM_ConstBoundsBatch        ConstBounds (memory planning with upper bounds)
// items_per_second is expressions per second.
#include <benchmark/benchmark.h>

#include <vector>

#include "rlx/arith/analyzer.h"

namespace {

using namespace rlx::ir;  // NOLINT: expression builders read better unqualified
using rlx::arith::Analyzer;

struct Batch {
  Var batch = MakeVar("batch"), seq = MakeVar("seq"), kv = MakeVar("kv");
  Var h = MakeVar("h"), w = MakeVar("w"), n = MakeVar("n"), m = MakeVar("m");
  Var i = MakeVar("i"), j = MakeVar("j");

  // Facts a function with tir_var_upper_bound annotations would give.
  void Bind(Analyzer& ana) const {
    ana.Bind(batch, 1, 64);
    ana.Bind(seq, 1, 4096);
    ana.Bind(kv, 0, 4096);
    ana.Bind(h, 1, 2048);
    ana.Bind(w, 1, 2048);
    ana.Bind(n, 1, 1 << 20);
    ana.Bind(m, 1, 1 << 20);
    ana.Bind(i, 0, 4095);
    ana.Bind(j, 0, 63);
  }

  std::vector<PrimExpr> ShapeExprs() const {
    std::vector<PrimExpr> out;
    // Conv / pool output sizes: (x + 2p - d(k - 1) - 1) // s + 1.
    for (int64_t k : {1, 3, 5, 7}) {
      for (int64_t s : {1, 2}) {
        int64_t p = k / 2;
        out.push_back(floordiv(h + 2 * p - 1 * (k - 1) - 1, s) + 1);
        out.push_back(floordiv(w + MakeInt(2) * p - (k - 1) - 1, s) + 1);
      }
    }
    out.push_back(floordiv(floordiv(h + 1, 2) + 1, 2));  // two stride-2 stages
    // Reshapes and attention shapes.
    out.push_back(batch * seq * 32 * 128);
    out.push_back(floordiv(batch * seq * 4096, 32 * 128));
    out.push_back(batch * 32 * (seq + kv));
    out.push_back((seq + kv) * 128 - kv * 128);
    out.push_back(n * 4 - n * 3 + m * 2 - m);
    // Flattened and unflattened indices.
    out.push_back((i * 64 + j) * 4 + 3);
    out.push_back(floordiv(i * 64 + j, 64));
    out.push_back(floormod(i * 64 + j, 64));
    out.push_back(floordiv(i * 64 + j, 64) * 64 + floormod(i * 64 + j, 64));
    // Tiling and clamps.
    out.push_back(floordiv(n + 31, 32) * 32);
    out.push_back(min(n, MakeInt(2048)) + max(seq - 1, MakeInt(0)));
    out.push_back(min(seq, seq + kv));
    out.push_back(select(lt(n, MakeInt(1 << 21)), n, MakeInt(1 << 21)));
    // Concat / split.
    out.push_back(n + m + n);
    out.push_back(floordiv(n * 2 + 1, 2));
    out.push_back(truncdiv(h * 3, MakeInt(3)));
    return out;
  }

  std::vector<PrimExpr> Conditions() const {
    std::vector<PrimExpr> out;
    out.push_back(eq(n * 4, 4 * n));
    out.push_back(eq(batch * seq * 4096, seq * batch * 32 * 128));
    out.push_back(le(floordiv(n + 31, 32) * 32, n + 31));
    out.push_back(ge(floordiv(n + 31, 32) * 32, n));
    out.push_back(lt(i * 64 + j, MakeInt(4096 * 64)));
    out.push_back(lt(floordiv(h + 1, 2), h + 1));
    out.push_back(eq(floormod(i * 64 + j * 0 + 128, 64), MakeInt(0)));
    out.push_back(le(seq, seq + kv));
    out.push_back(eq(n, m));  // undecidable: answered false
    out.push_back(lt(h, w));  // undecidable
    return out;
  }
};

void BM_SimplifyShapeBatch(benchmark::State& state) {
  Batch b;
  Analyzer ana;
  b.Bind(ana);
  std::vector<PrimExpr> exprs = b.ShapeExprs();
  for (auto _ : state) {
    for (const PrimExpr& e : exprs) benchmark::DoNotOptimize(ana.Simplify(e));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(exprs.size()));
}
BENCHMARK(BM_SimplifyShapeBatch);

void BM_SimplifyCanonicalBatch(benchmark::State& state) {
  Batch b;
  Analyzer ana;
  b.Bind(ana);
  std::vector<PrimExpr> exprs;
  for (const PrimExpr& e : b.ShapeExprs()) exprs.push_back(ana.Simplify(e));
  for (auto _ : state) {
    for (const PrimExpr& e : exprs) benchmark::DoNotOptimize(ana.Simplify(e));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(exprs.size()));
}
BENCHMARK(BM_SimplifyCanonicalBatch);

void BM_CanProveBatch(benchmark::State& state) {
  Batch b;
  Analyzer ana;
  b.Bind(ana);
  std::vector<PrimExpr> conds = b.Conditions();
  for (auto _ : state) {
    for (const PrimExpr& c : conds) benchmark::DoNotOptimize(ana.CanProve(c));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(conds.size()));
}
BENCHMARK(BM_CanProveBatch);

void BM_ConstBoundsBatch(benchmark::State& state) {
  Batch b;
  Analyzer ana;
  b.Bind(ana);
  std::vector<PrimExpr> exprs = b.ShapeExprs();
  for (auto _ : state) {
    for (const PrimExpr& e : exprs) benchmark::DoNotOptimize(ana.ConstBounds(e));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(exprs.size()));
}
BENCHMARK(BM_ConstBoundsBatch);

}  // namespace

BENCHMARK_MAIN();
