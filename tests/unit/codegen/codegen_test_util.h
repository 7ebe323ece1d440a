// Shared helpers for the codegen tests: small builders for hand-written TIR
// (loops, blocks, loads, stores, functions) and deterministic test data.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rlx/ir/expr.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"
#include "rlx/tir/interpreter.h"
#include "rlx/tir/stmt.h"
#include "rlx/tir/stmt_functor.h"

namespace rlx::codegen_test {

using ir::Buffer;
using ir::MakeFloat;
using ir::MakeInt;
using ir::MakeVar;
using ir::PrimExpr;
using ir::Var;
using tir::Block;
using tir::BlockNode;
using tir::BlockRealizeNode;
using tir::ForKind;
using tir::ForNode;
using tir::IterKind;
using tir::IterVar;
using tir::IterVarNode;
using tir::PrimFunc;
using tir::PrimFuncNode;
using tir::Range;
using tir::Stmt;

inline PrimExpr Load(const Buffer& buffer, std::vector<PrimExpr> indices) {
  return make<ir::BufferLoadNode>(buffer, std::move(indices));
}

inline Stmt Store(const Buffer& buffer, PrimExpr value, std::vector<PrimExpr> indices) {
  return make<tir::BufferStoreNode>(buffer, std::move(value), std::move(indices));
}

inline Stmt Loop(const Var& var, PrimExpr extent, Stmt body, ForKind kind = ForKind::kSerial,
                 PrimExpr min = PrimExpr()) {
  auto* loop = new ForNode();
  loop->loop_var = var;
  loop->min = min.defined() ? std::move(min) : MakeInt(0, var->dtype);
  loop->extent = std::move(extent);
  loop->for_kind = kind;
  loop->body = std::move(body);
  return Stmt(loop);
}

struct BlockSpec {
  std::string name;
  std::vector<IterVar> iter_vars;
  std::vector<PrimExpr> values;
  Stmt body;
  Stmt init;
  std::vector<Buffer> allocs;
  PrimExpr predicate;
  std::vector<tir::MatchBufferRegion> matches;
};

inline BlockSpec MakeBlockSpec(std::string name, std::vector<IterVar> iter_vars, std::vector<PrimExpr> values,
                               Stmt body, Stmt init = Stmt()) {
  BlockSpec spec;
  spec.name = std::move(name);
  spec.iter_vars = std::move(iter_vars);
  spec.values = std::move(values);
  spec.body = std::move(body);
  spec.init = std::move(init);
  return spec;
}

inline Stmt Realize(const BlockSpec& spec) {
  auto* block = new BlockNode();
  block->name = spec.name;
  block->iter_vars = spec.iter_vars;
  block->body = spec.body;
  block->init = spec.init;
  block->alloc_buffers = spec.allocs;
  block->match_buffers = spec.matches;
  auto* realize = new BlockRealizeNode();
  realize->iter_values = spec.values;
  realize->predicate = spec.predicate.defined() ? spec.predicate : ir::MakeBool(true);
  realize->block = Block(block);
  return Stmt(realize);
}

inline IterVar Spatial(const Var& var, PrimExpr extent) {
  return make<IterVarNode>(var, Range{MakeInt(0, var->dtype), std::move(extent)}, IterKind::kSpatial);
}
inline IterVar Reduce(const Var& var, PrimExpr extent) {
  return make<IterVarNode>(var, Range{MakeInt(0, var->dtype), std::move(extent)}, IterKind::kReduce);
}

// A function over `buffers` (one handle parameter each), then `scalars`.
inline PrimFunc Func(const std::vector<Buffer>& buffers, Stmt body, const std::vector<Var>& scalars = {}) {
  auto* func = new PrimFuncNode();
  for (const Buffer& buffer : buffers) {
    Var param = MakeVar("var_" + buffer->name, DataType::Handle());
    func->params.push_back(param);
    func->buffer_map.emplace_back(param, buffer);
  }
  for (const Var& scalar : scalars) func->params.push_back(scalar);
  func->body = std::move(body);
  return PrimFunc(func);
}

// Every statement and expression node of `func`'s body, in post-order.
inline std::vector<ObjectRef> AllNodes(const PrimFunc& func) {
  std::vector<ObjectRef> nodes;
  tir::PostOrderVisit(func->body, [&](const ObjectRef& node) { nodes.push_back(node); });
  return nodes;
}

template <typename T>
int CountNodes(const PrimFunc& func) {
  int count = 0;
  for (const ObjectRef& node : AllNodes(func)) count += node.isa<T>() ? 1 : 0;
  return count;
}

// A deterministic mix of positive and negative values.
inline double PatternValue(int64_t i, int seed = 0) {
  return static_cast<double>((i * 7 + seed * 13) % 23) * 0.25 - 2.75;
}

inline tir::HostTensor Pattern(DataType dtype, std::vector<int64_t> shape, int seed = 0) {
  tir::HostTensor tensor(dtype, std::move(shape));
  for (int64_t i = 0; i < tensor.num_elements(); ++i) tensor.SetFloat(i, PatternValue(i, seed));
  return tensor;
}

// The CompileError message `run` throws, or "<no error>".
inline std::string CompileErrorOf(const std::function<void()>& run) {
  try {
    run();
  } catch (const CompileError& error) {
    return error.diagnostic().message;
  }
  return "<no error>";
}

}  // namespace rlx::codegen_test
