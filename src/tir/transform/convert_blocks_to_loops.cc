// ConvertBlocksToLoops: removes TensorIR blocks, leaving plain loop nests
// (TVM's ConvertBlocksToOpaque + LowerMatchBuffer + LowerOpaqueBlock).
//
// A block is a scope with named iteration variables; once scheduling is done
// the scope is no longer needed. For each BlockRealize, inside out:
//
//   for i, k:                              for i, k:
//     with T.block("C"):                     if i * 2 + k < n:            (predicate)
//       vi = T.axis.spatial(n, i * 2 + k)      T.allocate tmp (N,)         (alloc_buffers)
//       T.where(i * 2 + k < n)                   C[i * 2 + k] = ... tmp ... (vi replaced)
//       tmp = T.alloc_buffer((N,))
//       C[vi] = ... tmp ...
//
// 1. The block body is lowered first (nested blocks disappear bottom-up).
// 2. match_buffers: an access `M[j...]` to a buffer matched to the region
//    `S[min_0 : ..., min_1 : ...]` becomes `S[min_0 + j_0, ...]`. When M has
//    fewer dimensions than the region, the region's leading dimensions must
//    have extent 1 and are indexed at their min. Anything else is reported.
// 3. Each alloc_buffer becomes `Allocate(data, dtype, shape)` around a
//    `DeclBuffer(buffer)` of the body, in declaration order (the first is
//    outermost).
// 4. Iteration variables are replaced by their bound values everywhere in
//    the result (direct substitution: bound values are index expressions of
//    the enclosing loop variables, cheap to repeat; Simplify folds them).
// 5. A predicate that is not the constant true guards the whole result.
//
// The block's reads/writes regions and annotations are dropped. A block
// that still has an `init` is an error: LowerInitBlock runs first.
#include <fmt/format.h>

#include <unordered_map>

#include "rlx/support/diagnostic.h"
#include "rlx/tir/transform.h"
#include "tir/transform/transform_util.h"

namespace rlx::tir {
namespace {

using transform_detail::BufferAccessRewriter;

// How accesses to one matched buffer map onto its source region.
struct MatchedRegion {
  Buffer source;
  std::vector<PrimExpr> mins;  // one per source dimension
  size_t leading = 0;          // source dimensions the matched buffer lacks
};

class MatchBufferLowerer : public BufferAccessRewriter {
 public:
  explicit MatchBufferLowerer(std::unordered_map<const ir::BufferNode*, MatchedRegion> regions)
      : regions_(std::move(regions)) {}

  bool RewriteAccess(Buffer* buffer, std::vector<PrimExpr>* indices) override {
    auto it = regions_.find(buffer->get());
    if (it == regions_.end()) return false;
    const MatchedRegion& region = it->second;
    std::vector<PrimExpr> source_indices(region.mins.begin(), region.mins.begin() + region.leading);
    for (size_t d = 0; d < indices->size(); ++d) {
      source_indices.push_back(transform_detail::IndexAdd(region.mins[region.leading + d], (*indices)[d]));
    }
    *buffer = region.source;
    *indices = std::move(source_indices);
    return true;
  }

 private:
  std::unordered_map<const ir::BufferNode*, MatchedRegion> regions_;
};

MatchedRegion DescribeMatch(const MatchBufferRegion& match, const Span& span) {
  const Buffer& buffer = match->buffer;
  const BufferRegion& source = match->source;
  MatchedRegion region{source->buffer, {}, 0};
  for (const Range& range : source->region) region.mins.push_back(range.min);
  if (buffer->shape.size() > source->region.size()) {
    ThrowError(span, fmt::format("match_buffer {}: {} dimensions cannot view a {}-dimensional region of {}",
                                 buffer->name, buffer->shape.size(), source->region.size(), source->buffer->name));
  }
  region.leading = source->region.size() - buffer->shape.size();
  for (size_t d = 0; d < region.leading; ++d) {
    if (!ir::IsConstInt(source->region[d].extent, 1)) {
      ThrowError(span, fmt::format("match_buffer {}: the {}-dimensional buffer views region {} of {}, whose "
                                   "dimension {} has extent {}, not 1; only leading unit dimensions can be dropped",
                                   buffer->name, buffer->shape.size(), d, source->buffer->name, d,
                                   ir::ToString(source->region[d].extent)));
    }
  }
  return region;
}

Stmt LowerMatchBuffers(const Block& block, Stmt body) {
  if (block->match_buffers.empty()) return body;
  std::unordered_map<const ir::BufferNode*, MatchedRegion> regions;
  for (const MatchBufferRegion& match : block->match_buffers) {
    regions.emplace(match->buffer.get(), DescribeMatch(match, block->span));
  }
  return MatchBufferLowerer(std::move(regions)).VisitStmt(body);
}

// Allocate + DeclBuffer for each of the block's buffers, around `body`.
Stmt WrapAllocations(const std::vector<Buffer>& buffers, Stmt body) {
  for (auto it = buffers.rbegin(); it != buffers.rend(); ++it) {
    const Buffer& buffer = *it;
    body = make<DeclBufferNode>(buffer, body);
    auto* alloc = new AllocateNode();
    alloc->span = buffer->span;
    alloc->buffer_var = buffer->data;
    alloc->dtype = buffer->dtype;
    alloc->extents = buffer->shape;
    alloc->condition = ir::MakeBool(true);
    alloc->body = body;
    body = Stmt(alloc);
  }
  return body;
}

class BlockRemover : public StmtMutator {
 protected:
  Stmt VisitStmt_(const BlockRealizeNode* op, const Stmt&) override {
    const Block& block = op->block;
    if (op->iter_values.size() != block->iter_vars.size()) {
      ThrowError(op->span, fmt::format("block {} binds {} iteration variables to {} values", block->name,
                                       block->iter_vars.size(), op->iter_values.size()));
    }
    Stmt body = LowerBlock(block);
    std::unordered_map<const ir::VarNode*, PrimExpr> bindings;
    for (size_t i = 0; i < block->iter_vars.size(); ++i) {
      const Var& var = block->iter_vars[i]->var;
      bindings[var.get()] = ir::cast(var->dtype, VisitPrimExpr(op->iter_values[i]));
    }
    if (!bindings.empty()) {
      body = Substitute(body, [&](const Var& var) {
        auto it = bindings.find(var.get());
        return it == bindings.end() ? PrimExpr() : it->second;
      });
    }
    if (op->predicate.defined() && !ir::IsConstInt(op->predicate, 1)) {
      body = make<IfThenElseNode>(VisitPrimExpr(op->predicate), body, Stmt());
    }
    return body;
  }

  Stmt VisitStmt_(const BlockNode* op, const Stmt& self) override {
    if (!op->iter_vars.empty()) {
      ThrowError(op->span, fmt::format("block {} has iteration variables but no BlockRealize binds them", op->name));
    }
    return LowerBlock(cast<BlockNode>(self));
  }

 private:
  // The block's body with nested blocks, match_buffers and allocations
  // lowered (iteration variables are still free).
  Stmt LowerBlock(const Block& block) {
    if (block->init.defined()) {
      ThrowError(block->span, fmt::format("block {} still has an init statement; LowerInitBlock must run before "
                                          "ConvertBlocksToLoops",
                                          block->name));
    }
    Stmt body = VisitStmt(block->body);
    body = LowerMatchBuffers(block, body);
    return WrapAllocations(block->alloc_buffers, body);
  }
};

}  // namespace

PrimFunc ConvertBlocksToLoops(const PrimFunc& func) {
  return transform_detail::WithBody(func, BlockRemover().VisitStmt(func->body));
}

}  // namespace rlx::tir
