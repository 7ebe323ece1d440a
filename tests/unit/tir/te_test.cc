// Tests for tir/te.h: the structure of the PrimFuncs CreatePrimFunc builds
// (TVM's block form: root block, one block per compute, iteration variable
// kinds, read/write regions, init, buffer_map with symbolic shapes, the
// intermediate allocation) and their results, run in the reference
// interpreter (tir/interpreter.h) against plain C++ loops at several values
// of each symbolic size. Every generated function is also checked by the
// well-formedness verifier.
#include "rlx/tir/te.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "rlx/graph/structural_equal.h"
#include "rlx/graph/well_formed.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/tir/interpreter.h"

namespace rlx::te {
namespace {

using ir::MakeFloat;
using ir::MakeInt;
using ir::MakeVar;
using tir::BlockNode;
using tir::BlockRealizeNode;
using tir::BufferRegion;
using tir::ForNode;
using tir::HostTensor;
using tir::IterKind;
using ::testing::HasSubstr;

// ---------------------------------------------------------------- helpers

const DataType kF32 = DataType::Float32();

// The blocks of `func` below the root, in order, and the root itself.
struct Blocks {
  const BlockNode* root = nullptr;
  std::vector<const BlockNode*> inner;
  std::vector<const ForNode*> loops;  // every loop, outermost first per nest
};

Blocks CollectBlocks(const PrimFunc& func) {
  Blocks blocks;
  const auto* root_realize = func->body.as<BlockRealizeNode>();
  if (!root_realize) return blocks;
  blocks.root = root_realize->block.get();
  std::function<void(const tir::Stmt&)> walk = [&](const tir::Stmt& stmt) {
    if (const auto* seq = stmt.as<tir::SeqStmtNode>()) {
      for (const tir::Stmt& child : seq->seq) walk(child);
    } else if (const auto* loop = stmt.as<ForNode>()) {
      blocks.loops.push_back(loop);
      walk(loop->body);
    } else if (const auto* realize = stmt.as<BlockRealizeNode>()) {
      blocks.inner.push_back(realize->block.get());
      walk(realize->block->body);
    }
  };
  walk(blocks.root->body);
  return blocks;
}

std::string IterKinds(const BlockNode* block) {
  std::string kinds;
  for (const IterVar& iter : block->iter_vars) kinds += tir::IterKindName(iter->iter_kind);
  return kinds;
}

// "A[v_ax0, v_k]" or "A[0:4, v_ax1:v_ax1 + 2]" for a region.
std::string RegionText(const BufferRegion& region) {
  std::string text = region->buffer->name + "[";
  for (size_t d = 0; d < region->region.size(); ++d) {
    const tir::Range& range = region->region[d];
    if (d) text += ", ";
    if (ir::IsConstInt(range.extent, 1)) {
      text += ir::ToString(range.min);
    } else {
      PrimExpr stop = ir::IsConstInt(range.min, 0) ? range.extent : range.min + range.extent;
      text += ir::ToString(range.min) + ":" + ir::ToString(stop);
    }
  }
  return text + "]";
}

std::vector<std::string> RegionTexts(const std::vector<BufferRegion>& regions) {
  std::vector<std::string> texts;
  for (const BufferRegion& region : regions) texts.push_back(RegionText(region));
  return texts;
}

void ExpectWellFormed(const PrimFunc& func) {
  ir::IRModule mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"func", func}}, ir::Dict());
  std::vector<Diagnostic> problems = graph::WellFormedDiagnostics(mod);
  for (const Diagnostic& problem : problems) ADD_FAILURE() << problem.message;
}

HostTensor Pattern(std::vector<int64_t> shape, int seed) {
  HostTensor tensor(kF32, std::move(shape));
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    tensor.SetFloat(i, static_cast<double>((i * 5 + seed * 7) % 13) * 0.5 - 3.0);
  }
  return tensor;
}

// An output tensor full of NaN, so unwritten elements show.
HostTensor Output(std::vector<int64_t> shape, DataType dtype = kF32) {
  HostTensor tensor(dtype, std::move(shape));
  tensor.Fill(NAN);
  return tensor;
}

std::string ErrorOf(const std::function<void()>& run) {
  try {
    run();
  } catch (const CompileError& error) {
    return error.diagnostic().message;
  }
  return "<no error>";
}

// ---------------------------------------------------------------- elementwise

struct ElementwiseAdd {
  Var n = MakeVar("n");
  Tensor a = Placeholder({n, MakeInt(4)}, kF32, "A");
  Tensor b = Placeholder({n, MakeInt(4)}, kF32, "B");
  Tensor c = Compute(
      {n, MakeInt(4)}, [&](const std::vector<Var>& i) { return a(i) + b(i); }, "T_add");
  PrimFunc func = CreatePrimFunc({a, b, c});
};

TEST(TeTest, ElementwiseAddStructure) {
  ElementwiseAdd add;
  const PrimFunc& func = add.func;
  ExpectWellFormed(func);
  ASSERT_EQ(func->params.size(), 3u);
  ASSERT_EQ(func->buffer_map.size(), 3u);
  EXPECT_EQ(func->params[0]->name_hint, "var_A");
  EXPECT_TRUE(func->params[0]->dtype.is_handle());
  EXPECT_TRUE(func->buffer_map[0].first.same_as(func->params[0]));
  EXPECT_TRUE(func->buffer_map[0].second.same_as(add.a.buffer()));
  EXPECT_TRUE(func->buffer_map[2].second.same_as(add.c.buffer()));
  // The symbolic size is the caller's variable, bare in the first shape.
  EXPECT_TRUE(func->buffer_map[0].second->shape[0].same_as(add.n));
  ASSERT_TRUE(func->attrs.defined());
  EXPECT_TRUE(ir::IsConstInt(cast<ir::IntImmNode>(func->attrs->Get("tir.noalias")), 1));

  Blocks blocks = CollectBlocks(func);
  ASSERT_NE(blocks.root, nullptr);
  EXPECT_EQ(blocks.root->name, "root");
  EXPECT_TRUE(blocks.root->iter_vars.empty());
  EXPECT_TRUE(blocks.root->alloc_buffers.empty());
  ASSERT_EQ(blocks.inner.size(), 1u);
  const BlockNode* block = blocks.inner[0];
  EXPECT_EQ(block->name, "T_add");
  EXPECT_EQ(IterKinds(block), "SS");
  EXPECT_EQ(block->iter_vars[0]->var->name_hint, "v_ax0");
  EXPECT_TRUE(block->iter_vars[0]->dom.extent.same_as(add.n));
  EXPECT_FALSE(block->init.defined());
  EXPECT_THAT(RegionTexts(block->reads), ::testing::ElementsAre("A[v_ax0, v_ax1]", "B[v_ax0, v_ax1]"));
  EXPECT_THAT(RegionTexts(block->writes), ::testing::ElementsAre("T_add[v_ax0, v_ax1]"));
  ASSERT_EQ(blocks.loops.size(), 2u);
  EXPECT_EQ(blocks.loops[0]->loop_var->name_hint, "ax0");
  EXPECT_TRUE(blocks.loops[0]->extent.same_as(add.n));
  EXPECT_TRUE(ir::IsConstInt(blocks.loops[1]->extent, 4));
}

TEST(TeTest, ElementwiseAddRunsAtSeveralSizes) {
  ElementwiseAdd add;
  tir::Interpreter interpreter(add.func);
  for (int64_t n : {1, 7, 64}) {
    HostTensor a = Pattern({n, 4}, 1), b = Pattern({n, 4}, 2), c = Output({n, 4});
    interpreter.Run({&a, &b, &c});
    for (int64_t i = 0; i < n * 4; ++i) EXPECT_EQ(c.GetFloat(i), a.GetFloat(i) + b.GetFloat(i)) << n << ", " << i;
  }
}

TEST(TeTest, BroadcastAdd) {
  // C[i, j] = A[i, j] + B[j] + D[0, j], with B of shape (4,) and D of (1, 4).
  Var n = MakeVar("n");
  Tensor a = Placeholder({n, MakeInt(4)}, kF32, "A");
  Tensor b = Placeholder({MakeInt(4)}, kF32, "B");
  Tensor d = Placeholder({MakeInt(1), MakeInt(4)}, kF32, "D");
  Tensor c = Compute({n, MakeInt(4)}, [&](const std::vector<Var>& i) { return a(i) + b(i[1]) + d(0, i[1]); }, "T_add");
  PrimFunc func = CreatePrimFunc({a, b, d, c});
  ExpectWellFormed(func);
  EXPECT_EQ(func->params[1]->name_hint, "B");  // static shapes keep the plain name
  const BlockNode* block = CollectBlocks(func).inner.at(0);
  EXPECT_THAT(RegionTexts(block->reads), ::testing::ElementsAre("A[v_ax0, v_ax1]", "B[v_ax1]", "D[0, v_ax1]"));

  for (int64_t rows : {1, 5}) {
    HostTensor as = Pattern({rows, 4}, 3), bs = Pattern({4}, 4), ds = Pattern({1, 4}, 5), cs = Output({rows, 4});
    tir::RunPrimFunc(func, {&as, &bs, &ds, &cs});
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < 4; ++j) {
        EXPECT_FLOAT_EQ(cs.At({i, j}), as.At({i, j}) + bs.At({j}) + ds.At({0, j})) << i << ", " << j;
      }
    }
  }
}

// ---------------------------------------------------------------- reductions

TEST(TeTest, MatmulWithReduceAxis) {
  Var n = MakeVar("n"), m = MakeVar("m");
  Tensor a = Placeholder({n, MakeInt(4)}, kF32, "A");
  Tensor w = Placeholder({MakeInt(4), m}, kF32, "W");
  IterVar k = ReduceAxis(MakeInt(4), "k");
  Tensor c = Compute(
      {n, m}, [&](const std::vector<Var>& i) { return Sum(a(i[0], k->var) * w(k->var, i[1]), {k}); }, "matmul");
  PrimFunc func = CreatePrimFunc({a, w, c});
  ExpectWellFormed(func);

  Blocks blocks = CollectBlocks(func);
  ASSERT_EQ(blocks.inner.size(), 1u);
  const BlockNode* block = blocks.inner[0];
  EXPECT_EQ(IterKinds(block), "SSR");
  EXPECT_EQ(block->iter_vars[2]->var->name_hint, "v_k");
  EXPECT_THAT(RegionTexts(block->reads), ::testing::ElementsAre("A[v_ax0, v_k]", "W[v_k, v_ax1]"));
  EXPECT_THAT(RegionTexts(block->writes), ::testing::ElementsAre("matmul[v_ax0, v_ax1]"));
  ASSERT_TRUE(block->init.defined());
  const auto* init = block->init.as<tir::BufferStoreNode>();
  ASSERT_NE(init, nullptr);
  EXPECT_TRUE(init->value.isa<ir::FloatImmNode>());
  EXPECT_EQ(init->value.as<ir::FloatImmNode>()->value, 0.0);
  // The update accumulates into the output.
  const auto* update = block->body.as<tir::BufferStoreNode>();
  ASSERT_NE(update, nullptr);
  EXPECT_EQ(ir::ToString(update->value), "matmul[v_ax0, v_ax1] + A[v_ax0, v_k] * W[v_k, v_ax1]");
  ASSERT_EQ(blocks.loops.size(), 3u);
  EXPECT_EQ(blocks.loops[2]->loop_var->name_hint, "k");

  tir::Interpreter interpreter(func);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 3}, {7, 2}, {16, 5}}) {
    HostTensor as = Pattern({rows, 4}, 1), ws = Pattern({4, cols}, 2), cs = Output({rows, cols});
    interpreter.Run({&as, &ws, &cs});
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        float expected = 0;
        for (int64_t r = 0; r < 4; ++r) expected += static_cast<float>(as.At({i, r}) * ws.At({r, j}));
        EXPECT_FLOAT_EQ(cs.At({i, j}), expected) << i << ", " << j;
      }
    }
  }
}

TEST(TeTest, MaxReduction) {
  // Row maximum of an (n, m) tensor; every value is negative, so a wrong
  // identity (0) would show.
  Var n = MakeVar("n"), m = MakeVar("m");
  Tensor a = Placeholder({n, m}, kF32, "A");
  IterVar k = ReduceAxis(m, "k");
  Tensor out = Compute({n}, [&](const std::vector<Var>& i) { return MaxReduce(a(i[0], k->var), {k}); }, "T_max");
  PrimFunc func = CreatePrimFunc({a, out});
  ExpectWellFormed(func);
  const BlockNode* block = CollectBlocks(func).inner.at(0);
  EXPECT_EQ(IterKinds(block), "SR");
  EXPECT_TRUE(block->iter_vars[1]->dom.extent.same_as(m));
  const auto* init = block->init.as<tir::BufferStoreNode>();
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->value.as<ir::FloatImmNode>()->value, -static_cast<double>(FLT_MAX));
  EXPECT_EQ(ir::ToString(block->body.as<tir::BufferStoreNode>()->value), "max(T_max[v_ax0], A[v_ax0, v_k])");

  for (int64_t cols : {1, 6}) {
    HostTensor as(kF32, {3, cols});
    for (int64_t i = 0; i < as.num_elements(); ++i) as.SetFloat(i, -1.0 - static_cast<double>((i * 7) % 5));
    HostTensor result = Output({3});
    tir::RunPrimFunc(func, {&as, &result});
    for (int64_t i = 0; i < 3; ++i) {
      double expected = -INFINITY;
      for (int64_t j = 0; j < cols; ++j) expected = std::max(expected, as.At({i, j}));
      EXPECT_EQ(result.At({i}), expected) << "row " << i << " of " << cols;
    }
  }
}

TEST(TeTest, ReductionIdentities) {
  EXPECT_EQ(ir::ToString(MinValue(DataType::Int(8))), "-128");
  EXPECT_EQ(ir::ToString(MaxValue(DataType::Int32())), "2147483647");
  EXPECT_EQ(ir::ToString(MaxValue(DataType::UInt(8))), "255");
  EXPECT_EQ(MinValue(DataType::Float(16)).as<ir::FloatImmNode>()->value, -65504.0);
  EXPECT_EQ(MaxValue(DataType::Float(64)).as<ir::FloatImmNode>()->value, DBL_MAX);
}

TEST(TeTest, ProdAndMinReductionsWithWhere) {
  // P[i] = prod over k < 3 of A[i, k]; M[i] = min over the even k of A[i, k].
  Tensor a = Placeholder({MakeInt(2), MakeInt(5)}, kF32, "A");
  IterVar k = ReduceAxis(MakeInt(3), "k");
  IterVar r = ReduceAxis(MakeInt(5), "r");
  Tensor prod = Compute({MakeInt(2)}, [&](const std::vector<Var>& i) { return ProdReduce(a(i[0], k->var), {k}); }, "P");
  Tensor mins = Compute(
      {MakeInt(2)},
      [&](const std::vector<Var>& i) {
        return MinReduce(a(i[0], r->var), {r}, ir::eq(ir::floormod(r->var, 2), MakeInt(0)));
      },
      "M");
  PrimFunc func = CreatePrimFunc({a, prod, mins});
  ExpectWellFormed(func);
  Blocks blocks = CollectBlocks(func);
  ASSERT_EQ(blocks.inner.size(), 2u);
  EXPECT_TRUE(blocks.inner[1]->body.isa<tir::IfThenElseNode>());  // the where guard
  HostTensor as = Pattern({2, 5}, 3), ps = Output({2}), ms = Output({2});
  tir::RunPrimFunc(func, {&as, &ps, &ms});
  for (int64_t i = 0; i < 2; ++i) {
    float expected_prod = 1;
    for (int64_t j = 0; j < 3; ++j) expected_prod *= static_cast<float>(as.At({i, j}));
    double expected_min = std::min({as.At({i, 0}), as.At({i, 2}), as.At({i, 4})});
    EXPECT_FLOAT_EQ(ps.At({i}), expected_prod);
    EXPECT_EQ(ms.At({i}), expected_min);
  }
}

// ---------------------------------------------------------------- multi-stage

TEST(TeTest, TwoStageComputeWithIntermediate) {
  // B = exp(A) (intermediate), C = B * 2 + A.
  Var n = MakeVar("n");
  Tensor a = Placeholder({n, MakeInt(3)}, kF32, "A");
  Tensor b = Compute({n, MakeInt(3)}, [&](const std::vector<Var>& i) { return ir::call(kF32, "exp", {a(i)}); }, "B");
  Tensor c = Compute({n, MakeInt(3)}, [&](const std::vector<Var>& i) { return b(i) * MakeFloat(2.0) + a(i); }, "C");
  EXPECT_EQ(c.inputs().size(), 2u);
  PrimFunc func = CreatePrimFunc({a, c});
  ExpectWellFormed(func);
  ASSERT_EQ(func->params.size(), 2u);
  Blocks blocks = CollectBlocks(func);
  ASSERT_EQ(blocks.root->alloc_buffers.size(), 1u);
  EXPECT_TRUE(blocks.root->alloc_buffers[0].same_as(b.buffer()));
  ASSERT_EQ(blocks.inner.size(), 2u);
  EXPECT_EQ(blocks.inner[0]->name, "B");
  EXPECT_EQ(blocks.inner[1]->name, "C");
  EXPECT_THAT(RegionTexts(blocks.inner[1]->reads), ::testing::ElementsAre("B[v_ax0, v_ax1]", "A[v_ax0, v_ax1]"));

  tir::Interpreter interpreter(func);
  for (int64_t rows : {1, 4}) {
    HostTensor as = Pattern({rows, 3}, 6), cs = Output({rows, 3});
    interpreter.Run({&as, &cs});
    for (int64_t i = 0; i < rows * 3; ++i) {
      float expected = std::exp(static_cast<float>(as.GetFloat(i))) * 2.0f + static_cast<float>(as.GetFloat(i));
      EXPECT_FLOAT_EQ(cs.GetFloat(i), expected) << i;
    }
  }
}

TEST(TeTest, PrintsAndParsesBackToTheSameFunction) {
  // matmul then relu in one function: TVMScript text and back.
  Var n = MakeVar("n");
  Tensor a = Placeholder({n, MakeInt(4)}, kF32, "A");
  Tensor w = Placeholder({MakeInt(4), MakeInt(3)}, kF32, "W");
  IterVar k = ReduceAxis(MakeInt(4), "k");
  Tensor mm = Compute(
      {n, MakeInt(3)}, [&](const std::vector<Var>& i) { return Sum(a(i[0], k->var) * w(k->var, i[1]), {k}); }, "matmul");
  Tensor relu = Compute({n, MakeInt(3)}, [&](const std::vector<Var>& i) { return ir::max(mm(i), MakeFloat(0.0)); }, "relu");
  PrimFunc func = CreatePrimFunc({a, w, relu});
  EXPECT_TRUE(func->is_private);
  ir::IRModule mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"fused", func}}, ir::Dict());
  std::string text = text::PrintModule(mod);
  EXPECT_THAT(text, HasSubstr("v_ax0, v_ax1, v_k = T.axis.remap(\"SSR\", [ax0, ax1, k])"));
  EXPECT_THAT(text, HasSubstr("matmul = T.alloc_buffer((n, T.int64(3)))"));
  ir::IRModule parsed = text::ParseModuleText(text);
  std::optional<std::string> mismatch = graph::StructuralMismatch(mod, parsed);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n" << text;
}

TEST(TeTest, DuplicateNamesGetUniqueBlockNames) {
  Tensor a = Placeholder({MakeInt(2)}, kF32, "A");
  Tensor b = Compute({MakeInt(2)}, [&](const std::vector<Var>& i) { return a(i) + MakeFloat(1.0); });
  Tensor c = Compute({MakeInt(2)}, [&](const std::vector<Var>& i) { return b(i) * MakeFloat(3.0); });
  PrimFunc func = CreatePrimFunc({a, c});
  Blocks blocks = CollectBlocks(func);
  ASSERT_EQ(blocks.inner.size(), 2u);
  EXPECT_EQ(blocks.inner[0]->name, "compute");
  EXPECT_EQ(blocks.inner[1]->name, "compute_1");
}

// ---------------------------------------------------------------- regions, conditionals

TEST(TeTest, ShiftedReadsGiveTheirHull) {
  // B[i] = A[i] + A[i + 2], A of shape (m,), B of (n,).
  Var n = MakeVar("n"), m = MakeVar("m");
  Tensor a = Placeholder({m}, kF32, "A");
  Tensor b = Compute({n}, [&](const std::vector<Var>& i) { return a(i[0]) + a(i[0] + 2); }, "B");
  PrimFunc func = CreatePrimFunc({a, b});
  const BlockNode* block = CollectBlocks(func).inner.at(0);
  EXPECT_THAT(RegionTexts(block->reads), ::testing::ElementsAre("A[v_ax0:v_ax0 + 3]"));
  HostTensor as = Pattern({8}, 1), bs = Output({6});
  tir::RunPrimFunc(func, {&as, &bs});
  for (int64_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(bs.At({i}), as.At({i}) + as.At({i + 2}));
}

TEST(TeTest, DataDependentIndexReadsTheWholeDimension) {
  // Take: Out[i, j] = A[idx[i], j].
  Var n = MakeVar("n"), rows = MakeVar("rows");
  Tensor a = Placeholder({rows, MakeInt(3)}, kF32, "A");
  Tensor idx = Placeholder({n}, DataType::Int64(), "idx");
  Tensor out = Compute({n, MakeInt(3)}, [&](const std::vector<Var>& i) { return a(idx(i[0]), i[1]); }, "take");
  PrimFunc func = CreatePrimFunc({a, idx, out});
  ExpectWellFormed(func);
  const BlockNode* block = CollectBlocks(func).inner.at(0);
  EXPECT_THAT(RegionTexts(block->reads), ::testing::ElementsAre("idx[v_ax0]", "A[0:rows, v_ax1]"));
  HostTensor as = Pattern({4, 3}, 2), ids(DataType::Int64(), {3}), outs = Output({3, 3});
  for (int64_t i = 0; i < 3; ++i) ids.SetInt(i, (i * 3 + 1) % 4);
  tir::RunPrimFunc(func, {&as, &ids, &outs});
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(outs.At({i, j}), as.At({(i * 3 + 1) % 4, j}));
  }
  ids.SetInt(0, 4);  // out of range: the interpreter reports it
  EXPECT_THAT(ErrorOf([&] { tir::RunPrimFunc(func, {&as, &ids, &outs}); }),
              HasSubstr("buffer A: index (4, 0) is out of bounds for shape (4, 3)"));
}

TEST(TeTest, PadWithIfThenElseAndReluWithSelect) {
  // P[i] = if_then_else(1 <= i < n + 1, A[i - 1], 0) over n + 2 elements,
  // R[i] = select(P[i] > 0, P[i], 0).
  Var n = MakeVar("n");
  Tensor a = Placeholder({n}, kF32, "A");
  Tensor pad = Compute(
      {n + 2},
      [&](const std::vector<Var>& i) {
        PrimExpr inside = ir::logical_and(ir::ge(i[0], MakeInt(1)), ir::lt(i[0], n + 1));
        return IfThenElse(inside, a(i[0] - 1), MakeFloat(0.0));
      },
      "pad");
  Tensor relu = Compute(
      {n + 2}, [&](const std::vector<Var>& i) { return ir::select(ir::gt(pad(i), MakeFloat(0.0)), pad(i), MakeFloat(0.0)); },
      "relu");
  PrimFunc func = CreatePrimFunc({a, relu});
  ExpectWellFormed(func);
  const BlockNode* pad_block = CollectBlocks(func).inner.at(0);
  EXPECT_THAT(RegionTexts(pad_block->reads), ::testing::ElementsAre("A[v_ax0 - 1]"));
  for (int64_t size : {1, 5}) {
    HostTensor as = Pattern({size}, 4), rs = Output({size + 2});
    tir::RunPrimFunc(func, {&as, &rs});
    for (int64_t i = 0; i < size + 2; ++i) {
      double padded = (i >= 1 && i <= size) ? as.At({i - 1}) : 0.0;
      EXPECT_EQ(rs.At({i}), std::max(padded, 0.0)) << i;
    }
  }
}

TEST(TeTest, ScalarParameterDefinesAnOtherwiseUnknownSize) {
  // Out has size n * 2, and no argument has a bare n: n comes as a scalar.
  Var n = MakeVar("n");
  Tensor a = Placeholder({n * 2}, kF32, "A");
  Tensor out = Compute({n * 2}, [&](const std::vector<Var>& i) { return a(i) * MakeFloat(3.0); }, "scale");
  EXPECT_THAT(ErrorOf([&] { CreatePrimFunc({a, out}); }), HasSubstr("variable n (used by A) is not defined"));
  PrimFunc func = CreatePrimFunc({a, out}, {n});
  ExpectWellFormed(func);
  ASSERT_EQ(func->params.size(), 3u);
  EXPECT_TRUE(func->params[2].same_as(n));
  HostTensor as = Pattern({6}, 1), outs = Output({6});
  tir::RunPrimFunc(func, {&as, &outs, 3});
  for (int64_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(outs.At({i}), as.At({i}) * 3);
}

// ---------------------------------------------------------------- extern

// A running sum along the only axis, as an extern statement:
//   out[0] = src[0]; for k in [0, n - 1): out[k + 1] = out[k] + src[k + 1]
tir::Stmt RunningSum(const Buffer& src, const Buffer& out) {
  Var k = MakeVar("k");
  auto* loop = new ForNode();
  loop->loop_var = k;
  loop->min = MakeInt(0);
  loop->extent = out->shape[0] - MakeInt(1);
  loop->body = make<tir::BufferStoreNode>(
      out, make<ir::BufferLoadNode>(out, std::vector<PrimExpr>{k}) + make<ir::BufferLoadNode>(src, std::vector<PrimExpr>{k + 1}),
      std::vector<PrimExpr>{k + 1});
  tir::Stmt first = make<tir::BufferStoreNode>(out, make<ir::BufferLoadNode>(src, std::vector<PrimExpr>{MakeInt(0)}),
                                               std::vector<PrimExpr>{MakeInt(0)});
  return tir::MakeSeq({first, tir::Stmt(loop)});
}

TEST(TeTest, ExternIsAnOpaqueBlockAroundItsStatement) {
  // A compute feeding an extern: double, then the running sum.
  Var n = MakeVar("n");
  Tensor a = Placeholder({n}, kF32, "A");
  Tensor twice = Compute({n}, [&](const std::vector<Var>& i) { return a(i) * MakeFloat(2.0); }, "twice");
  Tensor scan = Extern({n}, kF32, {twice},
                       [](const std::vector<Buffer>& in, const Buffer& out) { return RunningSum(in[0], out); }, "scan");
  ASSERT_EQ(scan.inputs().size(), 1u);
  EXPECT_TRUE(scan.inputs()[0] == twice);
  PrimFunc func = CreatePrimFunc({a, scan});
  ExpectWellFormed(func);
  Blocks blocks = CollectBlocks(func);
  ASSERT_EQ(blocks.inner.size(), 2u);
  const BlockNode* block = blocks.inner[1];
  EXPECT_EQ(block->name, "scan");
  EXPECT_TRUE(block->iter_vars.empty());
  EXPECT_THAT(RegionTexts(block->reads), ::testing::ElementsAre("twice[0:n]"));
  EXPECT_THAT(RegionTexts(block->writes), ::testing::ElementsAre("scan[0:n]"));
  ASSERT_EQ(blocks.root->alloc_buffers.size(), 1u);
  EXPECT_EQ(blocks.root->alloc_buffers[0]->name, "twice");
  ir::IRModule mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"func", func}}, ir::Dict());
  std::string text = text::PrintModule(mod);
  std::optional<std::string> mismatch = graph::StructuralMismatch(mod, text::ParseModuleText(text));
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n" << text;
  for (int64_t size : {1, 2, 9}) {
    HostTensor as = Pattern({size}, 3), outs = Output({size});
    tir::RunPrimFunc(func, {&as, &outs});
    double running = 0;
    for (int64_t i = 0; i < size; ++i) {
      running += 2 * as.At({i});
      EXPECT_DOUBLE_EQ(outs.At({i}), running) << size << " at " << i;
    }
  }
}

// An extern statement with a scratch buffer of its own (Allocate around a
// DeclBuffer): out[i] = a[n - 1 - i] through the scratch copy.
TEST(TeTest, ExternMayAllocateScratchBuffers) {
  Var n = MakeVar("n");
  Tensor a = Placeholder({n}, kF32, "A");
  Tensor reversed = Extern({n}, kF32, {a}, [&](const std::vector<Buffer>& in, const Buffer& out) {
    Buffer scratch = ir::MakeBuffer("scratch", {n}, kF32);
    Var i = MakeVar("i"), j = MakeVar("j");
    auto loop = [](const Var& var, const PrimExpr& extent, tir::Stmt body) {
      auto* node = new tir::ForNode();
      node->loop_var = var;
      node->min = MakeInt(0);
      node->extent = extent;
      node->body = std::move(body);
      return tir::Stmt(node);
    };
    tir::Stmt copy = loop(i, n, make<tir::BufferStoreNode>(scratch, make<ir::BufferLoadNode>(in[0], std::vector<PrimExpr>{i}),
                                                           std::vector<PrimExpr>{i}));
    PrimExpr mirrored = n - MakeInt(1) - j;
    tir::Stmt back = loop(j, n, make<tir::BufferStoreNode>(out, make<ir::BufferLoadNode>(scratch, std::vector<PrimExpr>{mirrored}),
                                                           std::vector<PrimExpr>{j}));
    auto* alloc = new tir::AllocateNode();
    alloc->buffer_var = scratch->data;
    alloc->dtype = kF32;
    alloc->extents = scratch->shape;
    alloc->condition = ir::MakeBool(true);
    alloc->body = make<tir::DeclBufferNode>(scratch, tir::MakeSeq({copy, back}));
    return tir::Stmt(alloc);
  }, "reversed");
  PrimFunc func = CreatePrimFunc({a, reversed});
  ExpectWellFormed(func);
  ir::IRModule mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"func", func}}, ir::Dict());
  std::string text = text::PrintModule(mod);
  std::optional<std::string> mismatch = graph::StructuralMismatch(mod, text::ParseModuleText(text));
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n" << text;
  for (int64_t size : {1, 5}) {
    HostTensor as = Pattern({size}, 3), outs = Output({size});
    tir::RunPrimFunc(func, {&as, &outs});
    for (int64_t i = 0; i < size; ++i) EXPECT_DOUBLE_EQ(outs.At({i}), as.At({size - 1 - i})) << size << " at " << i;
  }
}

TEST(TeTest, ExternMayTouchOnlyItsOwnBuffers) {
  Var n = MakeVar("n"), m = MakeVar("m");
  Tensor a = Placeholder({n}, kF32, "A");
  Tensor other = Placeholder({n}, kF32, "other");
  Tensor bad_buffer = Extern({n}, kF32, {a},
                             [&](const std::vector<Buffer>&, const Buffer& out) { return RunningSum(other.buffer(), out); },
                             "scan");
  EXPECT_THAT(ErrorOf([&] { CreatePrimFunc({a, other, bad_buffer}); }),
              HasSubstr("extern scan accesses buffer other, which is neither its output nor one of its inputs"));
  Tensor bad_var = Extern({n}, kF32, {a}, [&](const std::vector<Buffer>& in, const Buffer& out) {
    return tir::Stmt(make<tir::BufferStoreNode>(out, make<ir::BufferLoadNode>(in[0], std::vector<PrimExpr>{m}),
                                                std::vector<PrimExpr>{MakeInt(0)}));
  }, "pick");
  EXPECT_THAT(ErrorOf([&] { CreatePrimFunc({a, bad_var}); }), HasSubstr("variable m (used by pick) is not defined"));
}

// ---------------------------------------------------------------- errors

TEST(TeTest, UserMistakesAreCompileErrors) {
  Var n = MakeVar("n");
  Tensor a = Placeholder({n, MakeInt(4)}, kF32, "A");
  EXPECT_EQ(ErrorOf([&] { a(MakeInt(0)); }), "tensor A of shape (n, 4) has 2 dimensions, indexed with 1 indices");

  IterVar k = ReduceAxis(MakeInt(4), "k");
  EXPECT_THAT(ErrorOf([&] {
                Compute({n}, [&](const std::vector<Var>& i) { return Sum(a(i[0], k->var), {k}) * MakeFloat(2.0); }, "bad");
              }),
              HasSubstr("compute bad: a reduction (te.sum) must be the whole compute body"));

  Tensor b = Compute({n, MakeInt(4)}, [&](const std::vector<Var>& i) { return a(i) + MakeFloat(1.0); }, "B");
  EXPECT_EQ(ErrorOf([&] { CreatePrimFunc({b}); }),
            "CreatePrimFunc: placeholder A is read by B but is not among the arguments");
  EXPECT_THAT(ErrorOf([&] { CreatePrimFunc({a, a, b}); }), HasSubstr("tensor A is passed twice"));
}

}  // namespace
}  // namespace rlx::te
