// RewriteDataflowReshape: after TVM's relax.transform.RewriteDataflowReshape.
//
// Legalization turns R.reshape, R.expand_dims, R.squeeze and R.flatten into
// R.call_tir of a PrimFunc that copies its input element by element. The
// copy is unnecessary: the bytes are the same in row-major order. This pass
// finds such calls in dataflow blocks and turns them back into
//
//   y = R.reshape(x, R.shape([...out shape...]))
//
// which vm-builtin-lower lowers to vm.builtin.reshape, a zero-copy view
// (and which static-plan-block-memory treats as sharing x's storage).
//
// Reshape pattern of a PrimFunc (what makes the rewrite sound), read off
// its body:
//  - two buffer parameters, input then output, of the same dtype, compact
//    (no strides, no element offset), no scalar parameters;
//  - the body is a nest of serial loops from 0 (under an optional root
//    block without iterators) around one block without init, allocations or
//    match_buffers, each block iterator spatial over [0, e) and bound to one
//    loop variable of extent e;
//  - the block body is `out[v0, ..., vk] = in[i0, ..., im]` where the
//    output indices are exactly the iterators, in order, and each iterator
//    runs over the output's whole dimension, so every output element is
//    written once;
//  - with f = the row-major flat index of (v0, ..., vk) in the output, the
//    input indices are provably (arith::Analyzer, iterators bound to their
//    ranges) the row-major unravelling of f over the input shape, or their
//    row-major flat index is provably f;
//  - the two buffers hold provably the same number of elements.
// The call's argument must be a single tensor whose struct info matches the
// input buffer's rank; the reshape target is the call's output shape.
// Bindings outside dataflow blocks are left alone, as in TVM.
#include <unordered_map>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/ir/functor.h"
#include "rlx/tir/function.h"
#include "rlx/tir/stmt.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;

struct LoopNest {
  std::vector<const tir::ForNode*> loops;
  const tir::BlockRealizeNode* realize = nullptr;
};

// The loops and the innermost block realize, or nothing when the body has
// another shape.
std::optional<LoopNest> MatchLoopNest(const tir::Stmt& body) {
  LoopNest nest;
  tir::Stmt stmt = body;
  if (const auto* root = stmt.as<tir::BlockRealizeNode>()) {
    const tir::BlockNode* block = root->block.get();
    if (block->iter_vars.empty() && !block->init.defined() && block->alloc_buffers.empty() &&
        block->match_buffers.empty() && !block->body.isa<tir::BlockRealizeNode>()) {
      stmt = block->body;
    }
  }
  while (const auto* loop = stmt.as<tir::ForNode>()) {
    if (loop->for_kind != tir::ForKind::kSerial || !ir::IsConstInt(loop->min, 0) || !loop->HasUnitStep()) {
      return std::nullopt;
    }
    nest.loops.push_back(loop);
    stmt = loop->body;
  }
  nest.realize = stmt.as<tir::BlockRealizeNode>();
  if (nest.realize == nullptr) return std::nullopt;
  return nest;
}

ir::PrimExpr NumElements(const std::vector<ir::PrimExpr>& shape) {
  ir::PrimExpr count = ir::MakeInt(1);
  for (const ir::PrimExpr& dim : shape) count = ir::mul(count, dim);
  return count;
}

ir::PrimExpr FlatIndex(const std::vector<ir::PrimExpr>& indices, const std::vector<ir::PrimExpr>& shape) {
  ir::PrimExpr flat = ir::MakeInt(0);
  for (size_t i = 0; i < indices.size(); ++i) flat = ir::add(ir::mul(flat, shape[i]), indices[i]);
  return flat;
}

// The row-major indices of flat index `flat` in `shape`.
std::vector<ir::PrimExpr> Unravel(const ir::PrimExpr& flat, const std::vector<ir::PrimExpr>& shape) {
  std::vector<ir::PrimExpr> indices(shape.size());
  ir::PrimExpr rest = flat;
  for (size_t i = shape.size(); i-- > 0;) {
    indices[i] = i == 0 ? rest : ir::floormod(rest, shape[i]);
    rest = ir::floordiv(rest, shape[i]);
  }
  return indices;
}

bool IsCompact(const ir::Buffer& buffer) {
  return buffer->strides.empty() && (!buffer->elem_offset.defined() || ir::IsConstInt(buffer->elem_offset, 0));
}

bool CopiesInRowMajorOrder(const tir::BlockRealizeNode* realize, const ir::Buffer& input,
                           const ir::Buffer& output, arith::Analyzer* analyzer) {
  const tir::BlockNode* block = realize->block.get();
  const auto* store = block->body.as<tir::BufferStoreNode>();
  const auto* load = store ? store->value.as<ir::BufferLoadNode>() : nullptr;
  if (load == nullptr || !store->buffer.same_as(output) || !load->buffer.same_as(input)) return false;
  if (store->indices.size() != block->iter_vars.size() || output->shape.size() != store->indices.size()) return false;
  if (load->indices.size() != input->shape.size()) return false;
  for (size_t i = 0; i < block->iter_vars.size(); ++i) {
    const tir::IterVarNode* iter = block->iter_vars[i].get();
    const auto* index = store->indices[i].as<ir::VarNode>();
    if (index == nullptr || index != iter->var.get()) return false;
    if (!analyzer->CanProveEqual(iter->dom.extent, output->shape[i])) return false;
    int64_t max_extent = analyzer->ConstBounds(output->shape[i]).max_value;
    analyzer->Bind(iter->var, 0, max_extent == arith::ConstIntBound::kPosInf ? max_extent : max_extent - 1);
  }
  ir::PrimExpr flat = FlatIndex(store->indices, output->shape);
  if (analyzer->CanProveEqual(FlatIndex(load->indices, input->shape), flat)) return true;
  std::vector<ir::PrimExpr> expected = Unravel(flat, input->shape);
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!analyzer->CanProveEqual(load->indices[i], expected[i])) return false;
  }
  return true;
}

bool HasReshapePattern(const tir::PrimFuncNode* func) {
  if (func->params.size() != 2 || func->buffer_map.size() != 2) return false;
  ir::Buffer input = func->BufferFor(func->params[0]);
  ir::Buffer output = func->BufferFor(func->params[1]);
  if (!input.defined() || !output.defined() || input->dtype != output->dtype) return false;
  if (!IsCompact(input) || !IsCompact(output)) return false;
  std::optional<LoopNest> nest = MatchLoopNest(func->body);
  if (!nest) return false;
  const tir::BlockRealizeNode* realize = nest->realize;
  const tir::BlockNode* block = realize->block.get();
  if (block->init.defined() || !block->alloc_buffers.empty() || !block->match_buffers.empty()) return false;
  if (realize->predicate.defined() && !ir::IsConstInt(realize->predicate, 1)) return false;
  if (block->iter_vars.size() != nest->loops.size() || realize->iter_values.size() != nest->loops.size()) {
    return false;
  }
  for (size_t i = 0; i < nest->loops.size(); ++i) {
    const tir::IterVarNode* iter = block->iter_vars[i].get();
    const auto* bound = realize->iter_values[i].as<ir::VarNode>();
    if (iter->iter_kind != tir::IterKind::kSpatial || !ir::IsConstInt(iter->dom.min, 0)) return false;
    if (bound == nullptr || bound != nest->loops[i]->loop_var.get()) return false;
  }
  arith::Analyzer analyzer;
  for (size_t i = 0; i < nest->loops.size(); ++i) {
    if (!analyzer.CanProveEqual(nest->loops[i]->extent, block->iter_vars[i]->dom.extent)) return false;
  }
  if (!analyzer.CanProveEqual(NumElements(input->shape), NumElements(output->shape))) return false;
  return CopiesInRowMajorOrder(realize, input, output, &analyzer);
}

class ReshapeRewriter : public graph::ExprMutator {
 public:
  explicit ReshapeRewriter(const ir::IRModule& mod) : ExprMutator(mod), mod_(mod) {}

 protected:
  using ExprMutator::VisitBindingBlock_;
  using ExprMutator::VisitExpr_;

  graph::BindingBlock VisitBindingBlock_(const graph::DataflowBlockNode* block) override {
    in_dataflow_ = true;
    graph::BindingBlock result = ExprMutator::VisitBindingBlock_(block);
    in_dataflow_ = false;
    return result;
  }

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<graph::CallNode>();
    const auto* callee = call ? call->op.as<graph::OpNode>() : nullptr;
    if (!in_dataflow_ || callee == nullptr || callee->name != "relax.call_tir" || call->args.size() != 2) {
      return visited;
    }
    const auto* gvar = call->args[0].as<graph::GlobalVarNode>();
    const auto* args = call->args[1].as<graph::TupleNode>();
    const auto* out = call->sinfo_args.empty() ? nullptr : call->sinfo_args[0].as<graph::TensorStructInfoNode>();
    if (gvar == nullptr || args == nullptr || args->fields.size() != 1 || out == nullptr || !out->shape.defined()) {
      return visited;
    }
    const auto* func = mod_->Lookup(gvar->name_hint).as<tir::PrimFuncNode>();
    const auto* input = args->fields[0]->struct_info.as<graph::TensorStructInfoNode>();
    if (func == nullptr || input == nullptr || input->dtype != out->dtype) return visited;
    auto it = is_reshape_.find(func);
    if (it == is_reshape_.end()) it = is_reshape_.emplace(func, HasReshapePattern(func)).first;
    if (!it->second) return visited;
    return graph::MakeCall("relax.reshape", {args->fields[0], out->shape});
  }

 private:
  ir::IRModule mod_;
  bool in_dataflow_ = false;
  std::unordered_map<const tir::PrimFuncNode*, bool> is_reshape_;
};

}  // namespace

Pass RewriteDataflowReshape() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        ReshapeRewriter rewriter(mod);
        return cast<graph::FunctionNode>(rewriter.VisitExpr(func));
      },
      PassInfo{"rewrite-dataflow-reshape",
               "Turns call_tir of reshape PrimFuncs in dataflow blocks back into R.reshape (a zero-copy view)", 0,
               {}});
}

}  // namespace rlx::transform
