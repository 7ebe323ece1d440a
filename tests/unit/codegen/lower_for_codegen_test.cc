// Tests for the TIR lowering passes (rlx/tir/transform.h): each pass's
// structural effect on small hand-built functions, the printed form of a
// lowered TE matmul, the errors for misuse, and — the real oracle — that the
// lowered function computes exactly what the original computes, both run by
// the reference interpreter at several symbolic sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <unordered_map>

#include "codegen_test_util.h"
#include "rlx/arith/analyzer.h"
#include "rlx/text/printer.h"
#include "rlx/tir/te.h"
#include "rlx/tir/transform.h"

namespace rlx::codegen_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using tir::HostTensor;

// Runs `original` and `lowered` on the same inputs; outputs must be equal.
void ExpectSameResults(const PrimFunc& original, const PrimFunc& lowered, std::vector<HostTensor> inputs,
                       std::vector<HostTensor> outputs) {
  std::vector<HostTensor> expected = outputs;
  std::vector<tir::ArgValue> args_a, args_b;
  std::vector<HostTensor> inputs_b = inputs;
  for (HostTensor& t : inputs) args_a.push_back(&t);
  for (HostTensor& t : expected) args_a.push_back(&t);
  for (HostTensor& t : inputs_b) args_b.push_back(&t);
  for (HostTensor& t : outputs) args_b.push_back(&t);
  tir::RunPrimFunc(original, args_a);
  tir::RunPrimFunc(lowered, args_b);
  for (size_t o = 0; o < outputs.size(); ++o) {
    ASSERT_EQ(outputs[o].data, expected[o].data) << "output " << o << " differs";
  }
}

// Every access in the body has one index, and every buffer it touches is 1-d.
void ExpectFlat(const PrimFunc& func) {
  for (const ObjectRef& node : AllNodes(func)) {
    if (const auto* load = node.as<ir::BufferLoadNode>()) {
      EXPECT_EQ(load->indices.size(), 1u) << load->buffer->name;
      EXPECT_EQ(load->buffer->shape.size(), 1u) << load->buffer->name;
    }
    if (const auto* store = node.as<tir::BufferStoreNode>()) {
      EXPECT_EQ(store->indices.size(), 1u) << store->buffer->name;
      EXPECT_EQ(store->buffer->shape.size(), 1u) << store->buffer->name;
    }
  }
}

PrimFunc TeMatmul() {
  Var n = MakeVar("n");
  te::Tensor a = te::Placeholder({n, MakeInt(4)}, DataType::Float32(), "A");
  te::Tensor w = te::Placeholder({MakeInt(4), MakeInt(3)}, DataType::Float32(), "W");
  IterVar k = te::ReduceAxis(MakeInt(4), "k");
  te::Tensor c = te::Compute(
      {n, MakeInt(3)}, [&](const std::vector<Var>& i) { return te::Sum(a(i[0], k->var) * w(k->var, i[1]), {k}); },
      "matmul");
  return te::CreatePrimFunc({a, w, c});
}

TEST(LowerForCodegenTest, TeMatmulBecomesFlatLoopsWithGuardedInit) {
  PrimFunc func = TeMatmul();
  PrimFunc lowered = tir::LowerForCodegen(func);
  EXPECT_EQ(CountNodes<BlockNode>(lowered), 0);
  EXPECT_EQ(CountNodes<BlockRealizeNode>(lowered), 0);
  EXPECT_EQ(CountNodes<tir::IfThenElseNode>(lowered), 1);  // the init guard
  ExpectFlat(lowered);
  std::string text = text::PrintPrimFunc(lowered, "matmul");
  EXPECT_THAT(text, Not(HasSubstr("T.block")));
  EXPECT_THAT(text, Not(HasSubstr("T.init")));
  EXPECT_THAT(text, HasSubstr("if k == T.int64(0):")) << text;
  EXPECT_THAT(text, HasSubstr("matmul_1[ax0 * T.int64(3) + ax1]")) << text;
  for (int64_t n : {1, 5}) {
    ExpectSameResults(func, lowered, {Pattern(DataType::Float32(), {n, 4}), Pattern(DataType::Float32(), {4, 3}, 1)},
                      {HostTensor(DataType::Float32(), {n, 3})});
  }
}

// B[vi] = sum_r A[vi, vr] with init B[vi] = 0.
struct RowSum {
  Var m = MakeVar("m"), k = MakeVar("k");
  Var vi = MakeVar("vi"), vr = MakeVar("vr");
  Buffer a = ir::MakeBuffer("A", {m, k}, DataType::Float32());
  Buffer b = ir::MakeBuffer("B", {m}, DataType::Float32());
  PrimFunc func;

  RowSum() {
    Var i = MakeVar("i"), r = MakeVar("r");
    Stmt update = Store(b, Load(b, {vi}) + Load(a, {vi, vr}), {vi});
    Stmt init = Store(b, MakeFloat(0.0), {vi});
    Stmt block = Realize(MakeBlockSpec("sum", {Spatial(vi, m), Reduce(vr, k)}, {i, r}, update, init));
    func = Func({a, b}, Loop(i, m, Loop(r, k, block)));
  }
};

TEST(LowerInitBlockTest, InitRunsWhenReduceVarsAreAtTheirMin) {
  RowSum sum;
  PrimFunc lowered = tir::LowerInitBlock(sum.func);
  const BlockNode* block = nullptr;
  for (const ObjectRef& node : AllNodes(lowered)) {
    if (node.isa<BlockNode>()) block = node.as<BlockNode>();
  }
  ASSERT_NE(block, nullptr);
  EXPECT_FALSE(block->init.defined());
  const auto* seq = block->body.as<tir::SeqStmtNode>();
  ASSERT_NE(seq, nullptr);
  ASSERT_EQ(seq->seq.size(), 2u);
  const auto* guard = seq->seq[0].as<tir::IfThenElseNode>();
  ASSERT_NE(guard, nullptr);
  const auto* cond = guard->condition.as<ir::EQNode>();
  ASSERT_NE(cond, nullptr);
  EXPECT_TRUE(cond->a.same_as(sum.vr));  // only the reduce variable, not vi
  EXPECT_TRUE(ir::IsConstInt(cond->b, 0));
  ExpectSameResults(sum.func, lowered, {Pattern(DataType::Float32(), {3, 5})}, {HostTensor(DataType::Float32(), {3})});
}

TEST(LowerInitBlockTest, FunctionWithoutInitIsReturnedAsIs) {
  PrimFunc lowered = tir::ConvertBlocksToLoops(tir::LowerInitBlock(RowSum().func));
  EXPECT_TRUE(tir::LowerInitBlock(lowered).same_as(lowered));
}

TEST(ConvertBlocksToLoopsTest, BlockWithInitIsRejected) {
  RowSum sum;
  std::string message = CompileErrorOf([&] { tir::ConvertBlocksToLoops(sum.func); });
  EXPECT_THAT(message, HasSubstr("block sum still has an init statement"));
  EXPECT_THAT(message, HasSubstr("LowerInitBlock"));
}

TEST(ConvertBlocksToLoopsTest, PredicateBindingsAndAllocations) {
  // for io, ii in grid(ceil(n / 4), 4): block: v = io * 4 + ii, where v < n,
  //   tmp = alloc_buffer((1,)); tmp[0] = X[v] * 2; Y[v] = tmp[0] + 1
  Var n = MakeVar("n"), io = MakeVar("io"), ii = MakeVar("ii"), v = MakeVar("v");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n}, DataType::Float32());
  Buffer tmp = ir::MakeBuffer("tmp", {MakeInt(1)}, DataType::Float32());
  Stmt body = tir::MakeSeq({Store(tmp, Load(x, {v}) * MakeFloat(2.0), {MakeInt(0)}),
                            Store(y, Load(tmp, {MakeInt(0)}) + MakeFloat(1.0), {v})});
  BlockSpec spec = MakeBlockSpec("scale", {Spatial(v, n)}, {io * 4 + ii}, body);
  spec.allocs = {tmp};
  spec.predicate = ir::lt(io * 4 + ii, n);
  PrimFunc func = Func({x, y}, Loop(io, ir::floordiv(n + 3, 4), Loop(ii, MakeInt(4), Realize(spec))));

  PrimFunc lowered = tir::ConvertBlocksToLoops(func);
  EXPECT_EQ(CountNodes<BlockNode>(lowered) + CountNodes<BlockRealizeNode>(lowered), 0);
  EXPECT_EQ(CountNodes<tir::AllocateNode>(lowered), 1);
  EXPECT_EQ(CountNodes<tir::DeclBufferNode>(lowered), 1);
  EXPECT_EQ(CountNodes<tir::IfThenElseNode>(lowered), 1);
  for (const ObjectRef& node : AllNodes(lowered)) {
    EXPECT_FALSE(node.same_as(v)) << "the iteration variable must be substituted";
  }
  std::string text = text::PrintPrimFunc(lowered, "scale");
  EXPECT_THAT(text, HasSubstr("if io * T.int64(4) + ii < n:")) << text;
  for (int64_t size : {1, 6, 8}) {
    ExpectSameResults(func, lowered, {Pattern(DataType::Float32(), {size})}, {HostTensor(DataType::Float32(), {size})});
    ExpectSameResults(func, tir::LowerForCodegen(func), {Pattern(DataType::Float32(), {size})},
                      {HostTensor(DataType::Float32(), {size})});
  }
}

// for i: block: vi = i; row = match_buffer(A[vi:vi + 1, 1:4]) of shape `row_shape`;
//   for j in 3: B[vi, j] = row[..., j]
PrimFunc MatchRowFunc(const std::vector<PrimExpr>& row_shape) {
  Var i = MakeVar("i"), vi = MakeVar("vi"), j = MakeVar("j");
  Buffer a = ir::MakeBuffer("A", {MakeInt(2), MakeInt(4)}, DataType::Float32());
  Buffer b = ir::MakeBuffer("B", {MakeInt(2), MakeInt(3)}, DataType::Float32());
  Buffer row = ir::MakeBuffer("row", row_shape, DataType::Float32());
  auto region = make<tir::BufferRegionNode>(a, std::vector<Range>{{vi, MakeInt(1)}, {MakeInt(1), MakeInt(3)}});
  std::vector<PrimExpr> row_index =
      row_shape.size() == 2 ? std::vector<PrimExpr>{MakeInt(0), j} : std::vector<PrimExpr>{j};
  BlockSpec spec = MakeBlockSpec("copy", {Spatial(vi, MakeInt(2))}, {i},
                                 Loop(j, MakeInt(3), Store(b, Load(row, row_index), {vi, j})));
  spec.matches = {make<tir::MatchBufferRegionNode>(row, region)};
  return Func({a, b}, Loop(i, MakeInt(2), Realize(spec)));
}

void ExpectOnlyLoadsOf(const PrimFunc& func, const std::string& name) {
  for (const ObjectRef& node : AllNodes(func)) {
    if (const auto* load = node.as<ir::BufferLoadNode>()) {
      EXPECT_EQ(load->buffer->name, name);
    }
  }
}

TEST(ConvertBlocksToLoopsTest, MatchBufferBecomesOffsetAccessToItsSource) {
  PrimFunc func = MatchRowFunc({MakeInt(1), MakeInt(3)});
  PrimFunc lowered = tir::LowerForCodegen(func);
  ExpectOnlyLoadsOf(lowered, "A");
  ExpectSameResults(func, lowered, {Pattern(DataType::Float32(), {2, 4})}, {HostTensor(DataType::Float32(), {2, 3})});
}

TEST(ConvertBlocksToLoopsTest, MatchBufferMayDropLeadingUnitDimensions) {
  PrimFunc lowered = tir::LowerForCodegen(MatchRowFunc({MakeInt(3)}));
  ExpectOnlyLoadsOf(lowered, "A");
  HostTensor a = Pattern(DataType::Float32(), {2, 4});
  HostTensor b(DataType::Float32(), {2, 3});
  tir::RunPrimFunc(lowered, {&a, &b});
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(b.At({i, j}), a.At({i, j + 1})) << i << ", " << j;
  }
}

TEST(ConvertBlocksToLoopsTest, MatchBufferDroppingANonUnitDimensionIsRejected) {
  Var vi = MakeVar("vi");
  Buffer a = ir::MakeBuffer("A", {MakeInt(2), MakeInt(4)}, DataType::Float32());
  Buffer row = ir::MakeBuffer("row", {MakeInt(4)}, DataType::Float32());
  auto region = make<tir::BufferRegionNode>(a, std::vector<Range>{{MakeInt(0), MakeInt(2)}, {MakeInt(0), MakeInt(4)}});
  BlockSpec spec = MakeBlockSpec("bad", {}, {}, Store(row, MakeFloat(1.0), {MakeInt(0)}));
  spec.matches = {make<tir::MatchBufferRegionNode>(row, region)};
  PrimFunc func = Func({a}, Realize(spec));
  EXPECT_THAT(CompileErrorOf([&] { tir::ConvertBlocksToLoops(func); }),
              HasSubstr("match_buffer row: the 1-dimensional buffer views region 0 of A, whose dimension 0 has "
                        "extent 2, not 1"));
}

// The flat index of the only store in `func`.
PrimExpr StoreIndex(const PrimFunc& func) {
  PrimExpr index;
  for (const ObjectRef& node : AllNodes(func)) {
    if (const auto* store = node.as<tir::BufferStoreNode>()) {
      EXPECT_EQ(store->indices.size(), 1u);
      index = store->indices[0];
    }
  }
  return index;
}

TEST(FlattenBufferTest, CompactBuffersAreRowMajor) {
  Var n = MakeVar("n"), i = MakeVar("i"), j = MakeVar("j"), k = MakeVar("k");
  Buffer c = ir::MakeBuffer("C", {n, MakeInt(4), MakeInt(3)}, DataType::Float32());
  PrimFunc func = Func({c}, Store(c, MakeFloat(1.0), {i, j, k}));
  PrimFunc flat = tir::FlattenBuffer(func);
  ExpectFlat(flat);
  PrimExpr index = StoreIndex(flat);
  std::unordered_map<const ir::VarNode*, int64_t> values{{n.get(), 5}, {i.get(), 2}, {j.get(), 3}, {k.get(), 1}};
  EXPECT_EQ(arith::EvaluateInt(index, values), (2 * 4 + 3) * 3 + 1);
  // The flat buffer spans n * 4 * 3 elements and shares the data variable.
  for (const ObjectRef& node : AllNodes(flat)) {
    if (const auto* store = node.as<tir::BufferStoreNode>()) {
      EXPECT_TRUE(store->buffer->data.same_as(c->data));
      EXPECT_EQ(arith::EvaluateInt(store->buffer->shape[0], values), 60);
    }
  }
  // The buffer_map keeps the original 3-d buffer for argument unpacking.
  EXPECT_TRUE(flat->buffer_map[0].second.same_as(c));
}

TEST(FlattenBufferTest, ExplicitStridesAndElemOffset) {
  Var s0 = MakeVar("s0"), off = MakeVar("off"), i = MakeVar("i"), j = MakeVar("j");
  Buffer c = ir::MakeBuffer("C", {MakeInt(3), MakeInt(4)}, DataType::Float32());
  auto* node = const_cast<ir::BufferNode*>(c.get());
  node->strides = {s0, MakeInt(2)};
  node->elem_offset = off;
  PrimFunc func = Func({c}, Store(c, MakeFloat(1.0), {i, j}));
  PrimExpr index = StoreIndex(tir::FlattenBuffer(func));
  std::unordered_map<const ir::VarNode*, int64_t> values{{s0.get(), 10}, {off.get(), 7}, {i.get(), 2}, {j.get(), 3}};
  EXPECT_EQ(arith::EvaluateInt(index, values), 7 + 2 * 10 + 3 * 2);
}

TEST(FlattenBufferTest, ZeroDimensionalBufferUsesIndexZero) {
  Buffer s = ir::MakeBuffer("S", {}, DataType::Float32());
  PrimExpr index = StoreIndex(tir::FlattenBuffer(Func({s}, Store(s, MakeFloat(1.0), {}))));
  EXPECT_TRUE(ir::IsConstInt(index, 0));
}

TEST(FlattenBufferTest, VectorIndexStaysAContiguousRamp) {
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer b = ir::MakeBuffer("B", {n, MakeInt(8)}, DataType::Float32());
  PrimExpr lanes = make<ir::RampNode>(MakeInt(0), MakeInt(1), 8);
  Stmt body = Loop(i, n, Store(b, make<ir::BroadcastNode>(MakeFloat(1.0), 8), {i, lanes}));
  PrimExpr index = StoreIndex(tir::Simplify(tir::FlattenBuffer(Func({b}, body))));
  const auto* ramp = index.as<ir::RampNode>();
  ASSERT_NE(ramp, nullptr) << ir::ToString(index);
  EXPECT_TRUE(ir::IsConstInt(ramp->stride, 1));
  EXPECT_EQ(ramp->lanes, 8);
  EXPECT_EQ(arith::EvaluateInt(ramp->base, {{i.get(), 3}}), 24);
}

TEST(FlattenBufferTest, AllocateExtentsBecomeTheirProduct) {
  Buffer tmp = ir::MakeBuffer("tmp", {MakeInt(2), MakeInt(3)}, DataType::Float32());
  Buffer out = ir::MakeBuffer("out", {MakeInt(1)}, DataType::Float32());
  BlockSpec spec = MakeBlockSpec("root", {}, {},
                                 tir::MakeSeq({Store(tmp, MakeFloat(5.0), {MakeInt(1), MakeInt(2)}),
                                               Store(out, Load(tmp, {MakeInt(1), MakeInt(2)}), {MakeInt(0)})}));
  spec.allocs = {tmp};
  PrimFunc func = Func({out}, Realize(spec));
  PrimFunc lowered = tir::LowerForCodegen(func);
  ExpectFlat(lowered);
  for (const ObjectRef& node : AllNodes(lowered)) {
    if (const auto* alloc = node.as<tir::AllocateNode>()) {
      ASSERT_EQ(alloc->extents.size(), 1u);
      EXPECT_TRUE(ir::IsConstInt(alloc->extents[0], 6));
    }
  }
  std::string text = text::PrintPrimFunc(lowered, "f");
  EXPECT_THAT(text, HasSubstr("tmp = T.decl_buffer((T.int64(6),))")) << text;
  EXPECT_THAT(text, HasSubstr("tmp[T.int64(5)] = T.float32(5.0)")) << text;
  ExpectSameResults(func, lowered, {}, {HostTensor(DataType::Float32(), {1})});
}

TEST(FlattenBufferTest, BlocksAreRejected) {
  RowSum sum;
  EXPECT_THAT(CompileErrorOf([&] { tir::FlattenBuffer(sum.func); }),
              HasSubstr("FlattenBuffer: block sum is still present"));
}

TEST(SimplifyTest, LoopBoundsDecideConditionsAndFoldIndices) {
  // for i in 8: if i < 8: B[i // 8 * 100 + i] = 1   ->  B[i] = 1
  // for j in 1: B[j + 2] = 2                        ->  B[2] = 2
  Var i = MakeVar("i"), j = MakeVar("j");
  Buffer b = ir::MakeBuffer("B", {MakeInt(8)}, DataType::Float32());
  Stmt first = Loop(i, MakeInt(8),
                    make<tir::IfThenElseNode>(ir::lt(i, MakeInt(8)),
                                              Store(b, MakeFloat(1.0), {ir::floordiv(i, 8) * 100 + i}), Stmt()));
  Stmt second = Loop(j, MakeInt(1), Store(b, MakeFloat(2.0), {j + 2}));
  PrimFunc simplified = tir::Simplify(Func({b}, tir::MakeSeq({first, second})));
  EXPECT_EQ(CountNodes<tir::IfThenElseNode>(simplified), 0);
  EXPECT_EQ(CountNodes<ForNode>(simplified), 1);
  std::vector<PrimExpr> indices;
  for (const ObjectRef& node : AllNodes(simplified)) {
    if (const auto* store = node.as<tir::BufferStoreNode>()) indices.push_back(store->indices[0]);
  }
  ASSERT_EQ(indices.size(), 2u);
  EXPECT_TRUE(indices[0].same_as(i)) << ir::ToString(indices[0]);
  EXPECT_TRUE(ir::IsConstInt(indices[1], 2)) << ir::ToString(indices[1]);
}

TEST(SimplifyTest, ShapeVariablesAreNonNegative) {
  // A[max(n, 0) - n] with n a shape variable is A[0].
  Var n = MakeVar("n");
  Buffer a = ir::MakeBuffer("A", {n}, DataType::Float32());
  PrimFunc func = Func({a}, Store(a, MakeFloat(0.0), {ir::max(n, MakeInt(0)) - n}));
  PrimExpr index = StoreIndex(tir::Simplify(func));
  EXPECT_TRUE(ir::IsConstInt(index, 0)) << ir::ToString(index);
}

TEST(SimplifyTest, UnchangedFunctionIsReturnedAsIs) {
  Var i = MakeVar("i");
  Buffer b = ir::MakeBuffer("B", {MakeInt(8)}, DataType::Float32());
  PrimFunc func = Func({b}, Loop(i, MakeInt(8), Store(b, MakeFloat(1.0), {i})));
  EXPECT_TRUE(tir::Simplify(func).same_as(func));
}

}  // namespace
}  // namespace rlx::codegen_test
