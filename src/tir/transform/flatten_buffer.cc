// FlattenBuffer: every buffer access becomes a one-dimensional access to a
// flat view of the same memory (TVM's FlattenBuffer).
//
// For a buffer B(shape s_0..s_{k-1}, strides t, elem_offset o) the flat
// buffer F shares B's data variable and dtype and has one dimension. An
// access maps as
//
//   compact (no strides):  B[i_0, ..., i_{k-1}] -> F[o + ((i_0 * s_1 + i_1) * s_2 + ...)]
//   explicit strides:      B[i_0, ..., i_{k-1}] -> F[o + i_0 * t_0 + ... + i_{k-1} * t_{k-1}]
//   zero-dimensional:      B[]                  -> F[o]
//
// (o omitted when B has no elem_offset). Vector indices keep their
// Ramp/Broadcast form through the arithmetic, so `B[i, T.Ramp(j, 1, 8)]`
// becomes `F[T.Ramp(i * s_1 + j, 1, 8)]`, which codegen emits as one
// contiguous vector load. Index arithmetic is done in the wider of the
// index and shape dtypes.
//
// Declarations follow: an Allocate's extents become their product, a
// DeclBuffer declares F. The buffer_map is left as it is: its N-d buffers
// describe the arguments for the entry code, and F reaches the same memory
// through the shared data variable. A one-dimensional compact buffer
// without elem_offset is already flat and is kept.
#include <fmt/format.h>

#include <unordered_map>

#include "rlx/arith/analyzer.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/transform.h"
#include "tir/transform/transform_util.h"

namespace rlx::tir {
namespace {

using transform_detail::IndexAdd;
using transform_detail::IndexMul;

bool IsFlat(const Buffer& buffer) {
  return buffer->shape.size() == 1 && buffer->strides.empty() &&
         (!buffer->elem_offset.defined() || ir::IsConstInt(buffer->elem_offset, 0));
}

// The number of elements a flat view of `buffer` spans.
PrimExpr FlatExtent(const Buffer& buffer) {
  if (buffer->shape.empty()) return ir::MakeInt(1);
  if (!buffer->strides.empty()) return IndexMul(buffer->shape[0], buffer->strides[0]);
  PrimExpr extent = buffer->shape[0];
  for (size_t d = 1; d < buffer->shape.size(); ++d) extent = IndexMul(extent, buffer->shape[d]);
  return extent;
}

Buffer MakeFlatBuffer(const Buffer& buffer) {
  auto* node = new ir::BufferNode();
  node->data = buffer->data;
  node->dtype = buffer->dtype;
  node->shape = {arith::Analyzer().Simplify(FlatExtent(buffer))};
  node->name = buffer->name;
  node->scope = buffer->scope;
  node->data_alignment = buffer->data_alignment;
  node->offset_factor = buffer->offset_factor;
  node->span = buffer->span;
  return Buffer(node);
}

// The flat index of `indices` into `buffer` (see the file comment).
PrimExpr FlatIndex(const Buffer& buffer, const std::vector<PrimExpr>& indices) {
  PrimExpr flat;
  if (!buffer->strides.empty()) {
    for (size_t d = 0; d < indices.size(); ++d) {
      PrimExpr term = IndexMul(indices[d], buffer->strides[d]);
      flat = flat.defined() ? IndexAdd(flat, term) : term;
    }
  } else {
    for (size_t d = 0; d < indices.size(); ++d) {
      flat = flat.defined() ? IndexAdd(IndexMul(flat, buffer->shape[d]), indices[d]) : indices[d];
    }
  }
  bool has_offset = buffer->elem_offset.defined() && !ir::IsConstInt(buffer->elem_offset, 0);
  if (!flat.defined()) return has_offset ? buffer->elem_offset : ir::MakeInt(0);
  return has_offset ? IndexAdd(buffer->elem_offset, flat) : flat;
}

class BufferFlattener : public transform_detail::BufferAccessRewriter {
 public:
  bool RewriteAccess(Buffer* buffer, std::vector<PrimExpr>* indices) override {
    if (IsFlat(*buffer)) return false;
    const Buffer& original = *buffer;
    if (indices->size() != original->shape.size()) {
      ThrowError(original->span, fmt::format("buffer {} has {} dimensions but is accessed with {} indices",
                                             original->name, original->shape.size(), indices->size()));
    }
    if (!original->strides.empty() && original->strides.size() != original->shape.size()) {
      ThrowError(original->span, fmt::format("buffer {} has {} dimensions but {} strides", original->name,
                                             original->shape.size(), original->strides.size()));
    }
    PrimExpr flat = FlatIndex(original, *indices);
    *buffer = Flat(original);
    *indices = {flat};
    return true;
  }

  Buffer VisitBuffer(const Buffer& buffer) override { return IsFlat(buffer) ? buffer : Flat(buffer); }

 protected:
  using BufferAccessRewriter::VisitStmt_;  // the statements not overridden here
  Stmt VisitStmt_(const AllocateNode* op, const Stmt& self) override {
    Stmt visited = BufferAccessRewriter::VisitStmt_(op, self);
    const auto* alloc = visited.as<AllocateNode>();
    if (alloc->extents.size() == 1) return visited;
    PrimExpr extent = ir::MakeInt(1);
    for (const PrimExpr& e : alloc->extents) extent = IndexMul(extent, e);
    auto* node = new AllocateNode();
    node->span = alloc->span;
    node->buffer_var = alloc->buffer_var;
    node->dtype = alloc->dtype;
    node->extents = {extent};
    node->condition = alloc->condition;
    node->body = alloc->body;
    node->annotations = alloc->annotations;
    return Stmt(node);
  }

  Stmt VisitStmt_(const BlockNode* op, const Stmt&) override { ThrowBlock(op->name, op->span); }
  Stmt VisitStmt_(const BlockRealizeNode* op, const Stmt&) override { ThrowBlock(op->block->name, op->span); }

 private:
  [[noreturn]] static void ThrowBlock(const std::string& name, const Span& span) {
    ThrowError(span,
               fmt::format("FlattenBuffer: block {} is still present; ConvertBlocksToLoops must run first", name));
  }

  const Buffer& Flat(const Buffer& buffer) {
    auto it = flat_.find(buffer.get());
    if (it == flat_.end()) it = flat_.emplace(buffer.get(), MakeFlatBuffer(buffer)).first;
    return it->second;
  }

  std::unordered_map<const ir::BufferNode*, Buffer> flat_;
};

}  // namespace

PrimFunc FlattenBuffer(const PrimFunc& func) {
  return transform_detail::WithBody(func, BufferFlattener().VisitStmt(func->body));
}

}  // namespace rlx::tir
