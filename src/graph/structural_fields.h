// The fields of every IR node, in the order structural equality and hashing
// visit them (private to structural_equal.cc and structural_hash.cc).
//
// Equality and hashing must walk exactly the same positions in exactly the
// same order, or "equal implies same hash" breaks (variables hash by the
// order of their first appearance). So each node's fields are described once,
// here, as a function template over a *reducer*, and the two files supply the
// reducers:
//
//   ReduceFields(r, a, b)   visits the fields of a and b (same kind) in order;
//                           returns false at the first difference.
//
// The equality reducer compares a with b and records a path on failure; the
// hash reducer is called with b == a, mixes a's fields into its state and
// always returns true. A reducer provides:
//
//   bool Child(Step, const Node* a, const Node* b)      a child node (may be null)
//   bool Value(Step, const T& a, const T& b)            a scalar field
//   bool Size(Step, size_t a, size_t b)                 a list length
//   bool Missing(Step, const Node* a, const Node* b)    a Dict key on one side only
//   bool PrimVar(const ir::VarNode&, ...)               variable correspondence
//   bool GraphVar(const graph::VarNode&, ...)
//   bool Buffer(const ir::BufferNode&, ...)             (calls ReduceBufferFields at first sight)
//   bool Constant(const graph::ConstantNode&, ...)      payload policy differs
//   bool Module(const ir::IRModuleNode&, ...)           by name / order-independent
//   bool DerivedStructInfo(const StructInfoNode*, ...)  derived struct info of non-var exprs
//
// ReduceNode dispatches on the kind with a switch generated from the node
// X-macro lists (ir/node.h): a new node kind without a ReduceFields overload
// does not compile, and a new "other" kind trips -Wswitch.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/graph/struct_info.h"
#include "rlx/ir/attrs.h"
#include "rlx/ir/expr.h"
#include "rlx/ir/module.h"
#include "rlx/tir/function.h"
#include "rlx/tir/stmt.h"

namespace rlx::graph::structural {

// One step of a path from the root to a mismatch, rendered as
// `.field[index]["key"].sub` with absent parts left out. Built only on
// failure, so the success path never formats strings.
struct Step {
  const char* field = nullptr;
  int64_t index = -1;
  const std::string* key = nullptr;  // points into the compared nodes
  const char* sub = nullptr;
};

inline Step Field(const char* field) { return Step{field, -1, nullptr, nullptr}; }
inline Step Element(const char* field, size_t index, const char* sub = nullptr) {
  return Step{field, static_cast<int64_t>(index), nullptr, sub};
}
inline Step Keyed(const char* field, const std::string& key) { return Step{field, -1, &key, nullptr}; }
inline Step SubField(const char* field, const char* sub) { return Step{field, -1, nullptr, sub}; }

// Scalar wrappers that render and hash distinctly from plain values.
struct Presence {  // whether an optional list is known
  bool known;
  bool operator==(const Presence& other) const { return known == other.known; }
};
struct FloatBits {  // doubles compare by bit pattern (NaN == NaN, 0.0 != -0.0)
  double value;
  bool operator==(const FloatBits& other) const {
    return std::bit_cast<uint64_t>(value) == std::bit_cast<uint64_t>(other.value);
  }
};

// `expr` unless it is the integer `default_value`, in which case null: lets an
// omitted field (elem_offset, predicate, condition) equal its spelled-out default.
inline const Node* OrDefault(const ir::PrimExpr& expr, int64_t default_value) {
  return ir::IsConstInt(expr, default_value) ? nullptr : expr.get();
}

inline bool IsEmptyDict(const Node* node) {
  return node != nullptr && node->kind() == NodeKind::kDict && static_cast<const ir::DictNode*>(node)->items.empty();
}

template <typename R, typename T>
bool ReduceList(R& r, const char* field, const std::vector<Ref<T>>& a, const std::vector<Ref<T>>& b) {
  if (!r.Size(Field(field), a.size(), b.size())) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!r.Child(Element(field, i), a[i].get(), b[i].get())) return false;
  }
  return true;
}

template <typename R, typename T>
bool ReduceOptionalList(R& r, const char* field, const std::optional<std::vector<Ref<T>>>& a,
                        const std::optional<std::vector<Ref<T>>>& b) {
  if (!r.Value(Field(field), Presence{a.has_value()}, Presence{b.has_value()})) return false;
  return !a.has_value() || ReduceList(r, field, *a, *b);
}

template <typename R>
bool ReduceRange(R& r, const char* field, int64_t index, const tir::Range& a, const tir::Range& b) {
  return r.Child(Step{field, index, nullptr, "min"}, a.min.get(), b.min.get()) &&
         r.Child(Step{field, index, nullptr, "extent"}, a.extent.get(), b.extent.get());
}

template <typename R>
bool ReduceRegion(R& r, const char* field, const std::vector<tir::Range>& a, const std::vector<tir::Range>& b) {
  if (!r.Size(Field(field), a.size(), b.size())) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!ReduceRange(r, field, static_cast<int64_t>(i), a[i], b[i])) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// PrimExprs. Every PrimExpr compares its dtype first.

template <typename R>
bool ReduceDtype(R& r, const ir::PrimExprNode& a, const ir::PrimExprNode& b) {
  return r.Value(Field("dtype"), a.dtype, b.dtype);
}

template <typename R>
bool ReduceFields(R& r, const ir::IntImmNode& a, const ir::IntImmNode& b) {
  return ReduceDtype(r, a, b) && r.Value(Field("value"), a.value, b.value);
}
template <typename R>
bool ReduceFields(R& r, const ir::FloatImmNode& a, const ir::FloatImmNode& b) {
  return ReduceDtype(r, a, b) && r.Value(Field("value"), FloatBits{a.value}, FloatBits{b.value});
}
template <typename R>
bool ReduceFields(R& r, const ir::StringImmNode& a, const ir::StringImmNode& b) {
  return r.Value(Field("value"), a.value, b.value);
}
template <typename R>
bool ReduceFields(R& r, const ir::VarNode& a, const ir::VarNode& b) {
  return r.PrimVar(a, b);
}
template <typename R>
bool ReduceFields(R& r, const ir::BinaryNode& a, const ir::BinaryNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("a"), a.a.get(), b.a.get()) && r.Child(Field("b"), a.b.get(), b.b.get());
}
template <typename R>
bool ReduceFields(R& r, const ir::NotNode& a, const ir::NotNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("a"), a.a.get(), b.a.get());
}
template <typename R>
bool ReduceFields(R& r, const ir::SelectNode& a, const ir::SelectNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("condition"), a.condition.get(), b.condition.get()) &&
         r.Child(Field("true_value"), a.true_value.get(), b.true_value.get()) &&
         r.Child(Field("false_value"), a.false_value.get(), b.false_value.get());
}
template <typename R>
bool ReduceFields(R& r, const ir::CastNode& a, const ir::CastNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("value"), a.value.get(), b.value.get());
}
template <typename R>
bool ReduceFields(R& r, const ir::LetNode& a, const ir::LetNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("var"), a.var.get(), b.var.get()) &&
         r.Child(Field("value"), a.value.get(), b.value.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const ir::CallNode& a, const ir::CallNode& b) {
  return ReduceDtype(r, a, b) && r.Value(Field("op"), a.op, b.op) && ReduceList(r, "args", a.args, b.args);
}
template <typename R>
bool ReduceFields(R& r, const ir::BufferLoadNode& a, const ir::BufferLoadNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("buffer"), a.buffer.get(), b.buffer.get()) &&
         ReduceList(r, "indices", a.indices, b.indices);
}
template <typename R>
bool ReduceFields(R& r, const ir::RampNode& a, const ir::RampNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("base"), a.base.get(), b.base.get()) &&
         r.Child(Field("stride"), a.stride.get(), b.stride.get()) && r.Value(Field("lanes"), a.lanes, b.lanes);
}
template <typename R>
bool ReduceFields(R& r, const ir::BroadcastNode& a, const ir::BroadcastNode& b) {
  return ReduceDtype(r, a, b) && r.Child(Field("value"), a.value.get(), b.value.get()) &&
         r.Value(Field("lanes"), a.lanes, b.lanes);
}

// A Buffer's own fields, compared when the buffer is first seen (the
// reducer's Buffer hook decides when). The name is a hint and is ignored.
template <typename R>
bool ReduceBufferFields(R& r, const ir::BufferNode& a, const ir::BufferNode& b) {
  return r.Value(Field("dtype"), a.dtype, b.dtype) && ReduceList(r, "shape", a.shape, b.shape) &&
         ReduceList(r, "strides", a.strides, b.strides) &&
         r.Child(Field("elem_offset"), OrDefault(a.elem_offset, 0), OrDefault(b.elem_offset, 0)) &&
         r.Value(Field("scope"), a.scope, b.scope) &&
         r.Value(Field("data_alignment"), a.data_alignment, b.data_alignment) &&
         r.Value(Field("offset_factor"), a.offset_factor, b.offset_factor) &&
         r.Child(Field("data"), a.data.get(), b.data.get());
}

// ---------------------------------------------------------------------------
// TIR statements and their parts.

template <typename R>
bool ReduceFields(R& r, const tir::ForNode& a, const tir::ForNode& b) {
  return r.Child(Field("loop_var"), a.loop_var.get(), b.loop_var.get()) &&
         r.Child(Field("min"), a.min.get(), b.min.get()) && r.Child(Field("extent"), a.extent.get(), b.extent.get()) &&
         r.Value(Field("for_kind"), a.for_kind, b.for_kind) && r.Value(Field("thread_tag"), a.thread_tag, b.thread_tag) &&
         r.Child(Field("annotations"), a.annotations.get(), b.annotations.get()) &&
         r.Child(Field("step"), a.step.get(), b.step.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}
// The block name is a hint (as in TVM) and is ignored.
template <typename R>
bool ReduceFields(R& r, const tir::BlockNode& a, const tir::BlockNode& b) {
  return ReduceList(r, "iter_vars", a.iter_vars, b.iter_vars) &&
         ReduceList(r, "alloc_buffers", a.alloc_buffers, b.alloc_buffers) &&
         ReduceList(r, "match_buffers", a.match_buffers, b.match_buffers) &&
         ReduceList(r, "reads", a.reads, b.reads) && ReduceList(r, "writes", a.writes, b.writes) &&
         r.Child(Field("annotations"), a.annotations.get(), b.annotations.get()) &&
         r.Child(Field("init"), a.init.get(), b.init.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::BlockRealizeNode& a, const tir::BlockRealizeNode& b) {
  return ReduceList(r, "iter_values", a.iter_values, b.iter_values) &&
         r.Child(Field("predicate"), OrDefault(a.predicate, 1), OrDefault(b.predicate, 1)) &&
         r.Child(Field("block"), a.block.get(), b.block.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::BufferStoreNode& a, const tir::BufferStoreNode& b) {
  return r.Child(Field("buffer"), a.buffer.get(), b.buffer.get()) && ReduceList(r, "indices", a.indices, b.indices) &&
         r.Child(Field("value"), a.value.get(), b.value.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::SeqStmtNode& a, const tir::SeqStmtNode& b) {
  return ReduceList(r, "seq", a.seq, b.seq);
}
template <typename R>
bool ReduceFields(R& r, const tir::IfThenElseNode& a, const tir::IfThenElseNode& b) {
  return r.Child(Field("condition"), a.condition.get(), b.condition.get()) &&
         r.Child(Field("then_case"), a.then_case.get(), b.then_case.get()) &&
         r.Child(Field("else_case"), a.else_case.get(), b.else_case.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::WhileNode& a, const tir::WhileNode& b) {
  return r.Child(Field("condition"), a.condition.get(), b.condition.get()) &&
         r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::LetStmtNode& a, const tir::LetStmtNode& b) {
  return r.Child(Field("var"), a.var.get(), b.var.get()) && r.Child(Field("value"), a.value.get(), b.value.get()) &&
         r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::AttrStmtNode& a, const tir::AttrStmtNode& b) {
  return r.Child(Field("node"), a.node.get(), b.node.get()) && r.Value(Field("attr_key"), a.attr_key, b.attr_key) &&
         r.Child(Field("value"), a.value.get(), b.value.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::EvaluateNode& a, const tir::EvaluateNode& b) {
  return r.Child(Field("value"), a.value.get(), b.value.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::AssertStmtNode& a, const tir::AssertStmtNode& b) {
  return r.Child(Field("condition"), a.condition.get(), b.condition.get()) &&
         r.Child(Field("message"), a.message.get(), b.message.get()) &&
         r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::AllocateNode& a, const tir::AllocateNode& b) {
  return r.Child(Field("buffer_var"), a.buffer_var.get(), b.buffer_var.get()) &&
         r.Value(Field("dtype"), a.dtype, b.dtype) && ReduceList(r, "extents", a.extents, b.extents) &&
         r.Child(Field("condition"), OrDefault(a.condition, 1), OrDefault(b.condition, 1)) &&
         r.Child(Field("annotations"), a.annotations.get(), b.annotations.get()) &&
         r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::DeclBufferNode& a, const tir::DeclBufferNode& b) {
  return r.Child(Field("buffer"), a.buffer.get(), b.buffer.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}
template <typename R>
bool ReduceFields(R& r, const tir::IterVarNode& a, const tir::IterVarNode& b) {
  return r.Child(Field("var"), a.var.get(), b.var.get()) && ReduceRange(r, "dom", -1, a.dom, b.dom) &&
         r.Value(Field("iter_kind"), a.iter_kind, b.iter_kind) && r.Value(Field("thread_tag"), a.thread_tag, b.thread_tag);
}
template <typename R>
bool ReduceFields(R& r, const tir::BufferRegionNode& a, const tir::BufferRegionNode& b) {
  return r.Child(Field("buffer"), a.buffer.get(), b.buffer.get()) && ReduceRegion(r, "region", a.region, b.region);
}
template <typename R>
bool ReduceFields(R& r, const tir::MatchBufferRegionNode& a, const tir::MatchBufferRegionNode& b) {
  return r.Child(Field("source"), a.source.get(), b.source.get()) &&
         r.Child(Field("buffer"), a.buffer.get(), b.buffer.get());
}
// Parameters first (they are defined there), then the buffers bound to them
// (their shapes define symbolic variables), then the body.
template <typename R>
bool ReduceFields(R& r, const tir::PrimFuncNode& a, const tir::PrimFuncNode& b) {
  if (!ReduceList(r, "params", a.params, b.params)) return false;
  if (!r.Size(Field("buffer_map"), a.buffer_map.size(), b.buffer_map.size())) return false;
  for (size_t i = 0; i < a.buffer_map.size(); ++i) {
    const auto& [a_param, a_buffer] = a.buffer_map[i];
    const auto& [b_param, b_buffer] = b.buffer_map[i];
    if (!r.Child(Element("buffer_map", i, "param"), a_param.get(), b_param.get())) return false;
    if (!r.Child(Element("buffer_map", i, "buffer"), a_buffer.get(), b_buffer.get())) return false;
  }
  return r.Value(Field("ret_type"), a.ret_type, b.ret_type) && r.Value(Field("is_private"), a.is_private, b.is_private) &&
         r.Child(Field("attrs"), a.attrs.get(), b.attrs.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}

// ---------------------------------------------------------------------------
// Struct info.

template <typename R>
bool ReduceFields(R&, const ObjectStructInfoNode&, const ObjectStructInfoNode&) {
  return true;
}
template <typename R>
bool ReduceFields(R& r, const PrimStructInfoNode& a, const PrimStructInfoNode& b) {
  return r.Value(Field("dtype"), a.dtype, b.dtype) && r.Child(Field("value"), a.value.get(), b.value.get());
}
template <typename R>
bool ReduceFields(R& r, const ShapeStructInfoNode& a, const ShapeStructInfoNode& b) {
  return ReduceOptionalList(r, "values", a.values, b.values) && r.Value(Field("ndim"), a.ndim, b.ndim);
}
template <typename R>
bool ReduceFields(R& r, const TensorStructInfoNode& a, const TensorStructInfoNode& b) {
  return r.Child(Field("shape"), a.shape.get(), b.shape.get()) && r.Value(Field("dtype"), a.dtype, b.dtype) &&
         r.Value(Field("ndim"), a.ndim, b.ndim);
}
template <typename R>
bool ReduceFields(R& r, const TupleStructInfoNode& a, const TupleStructInfoNode& b) {
  return ReduceList(r, "fields", a.fields, b.fields);
}
template <typename R>
bool ReduceFields(R& r, const FuncStructInfoNode& a, const FuncStructInfoNode& b) {
  return ReduceOptionalList(r, "params", a.params, b.params) && r.Child(Field("ret"), a.ret.get(), b.ret.get()) &&
         r.Value(Field("purity"), a.purity, b.purity);
}

// ---------------------------------------------------------------------------
// Graph expressions. Leaves whose struct info is fixed by their fields
// (constants, shapes, prim values, strings, functions, global vars, ops)
// do not compare it again; calls, tuples, ... compare their deduced one.

template <typename R>
bool ReduceFields(R& r, const VarNode& a, const VarNode& b) {
  return r.GraphVar(a, b);
}
template <typename R>
bool ReduceFields(R& r, const ConstantNode& a, const ConstantNode& b) {
  return r.Constant(a, b);
}
template <typename R>
bool ReduceFields(R& r, const TupleNode& a, const TupleNode& b) {
  return ReduceList(r, "fields", a.fields, b.fields) && r.DerivedStructInfo(a.struct_info.get(), b.struct_info.get());
}
template <typename R>
bool ReduceFields(R& r, const TupleGetItemNode& a, const TupleGetItemNode& b) {
  return r.Child(Field("tuple"), a.tuple.get(), b.tuple.get()) && r.Value(Field("index"), a.index, b.index) &&
         r.DerivedStructInfo(a.struct_info.get(), b.struct_info.get());
}
template <typename R>
bool ReduceFields(R& r, const CallNode& a, const CallNode& b) {
  return r.Child(Field("op"), a.op.get(), b.op.get()) && ReduceList(r, "args", a.args, b.args) &&
         r.Child(Field("attrs"), a.attrs.get(), b.attrs.get()) &&
         ReduceList(r, "sinfo_args", a.sinfo_args, b.sinfo_args) &&
         r.DerivedStructInfo(a.struct_info.get(), b.struct_info.get());
}
template <typename R>
bool ReduceFields(R& r, const IfNode& a, const IfNode& b) {
  return r.Child(Field("cond"), a.cond.get(), b.cond.get()) &&
         r.Child(Field("true_branch"), a.true_branch.get(), b.true_branch.get()) &&
         r.Child(Field("false_branch"), a.false_branch.get(), b.false_branch.get()) &&
         r.DerivedStructInfo(a.struct_info.get(), b.struct_info.get());
}
template <typename R>
bool ReduceFields(R& r, const SeqExprNode& a, const SeqExprNode& b) {
  return ReduceList(r, "blocks", a.blocks, b.blocks) && r.Child(Field("body"), a.body.get(), b.body.get()) &&
         r.DerivedStructInfo(a.struct_info.get(), b.struct_info.get());
}
template <typename R>
bool ReduceFields(R& r, const ShapeExprNode& a, const ShapeExprNode& b) {
  return ReduceList(r, "values", a.values, b.values);
}
template <typename R>
bool ReduceFields(R& r, const PrimValueNode& a, const PrimValueNode& b) {
  return r.Child(Field("value"), a.value.get(), b.value.get());
}
template <typename R>
bool ReduceFields(R& r, const StringImmNode& a, const StringImmNode& b) {
  return r.Value(Field("value"), a.value, b.value);
}
template <typename R>
bool ReduceFields(R& r, const DataTypeImmNode& a, const DataTypeImmNode& b) {
  return r.Value(Field("value"), a.value, b.value);
}
template <typename R>
bool ReduceFields(R& r, const ExternFuncNode& a, const ExternFuncNode& b) {
  return r.Value(Field("global_symbol"), a.global_symbol, b.global_symbol);
}
template <typename R>
bool ReduceFields(R& r, const GlobalVarNode& a, const GlobalVarNode& b) {
  return r.Value(Field("name"), a.name_hint, b.name_hint);
}
template <typename R>
bool ReduceFields(R& r, const OpNode& a, const OpNode& b) {
  return r.Value(Field("name"), a.name, b.name);
}
// Parameters first: their struct info defines the function's symbolic vars.
template <typename R>
bool ReduceFields(R& r, const FunctionNode& a, const FunctionNode& b) {
  return ReduceList(r, "params", a.params, b.params) &&
         r.Child(Field("ret_struct_info"), a.ret_struct_info.get(), b.ret_struct_info.get()) &&
         r.Value(Field("is_pure"), a.is_pure, b.is_pure) && r.Value(Field("is_private"), a.is_private, b.is_private) &&
         r.Child(Field("attrs"), a.attrs.get(), b.attrs.get()) && r.Child(Field("body"), a.body.get(), b.body.get());
}

// The bound value before the variable (better messages: the cause comes
// first), except for a function value, which may refer to its own variable.
template <typename R>
bool ReduceFields(R& r, const VarBindingNode& a, const VarBindingNode& b) {
  if (a.value.isa<FunctionNode>()) {
    return r.Child(Field("var"), a.var.get(), b.var.get()) && r.Child(Field("value"), a.value.get(), b.value.get());
  }
  return r.Child(Field("value"), a.value.get(), b.value.get()) && r.Child(Field("var"), a.var.get(), b.var.get());
}
// The pattern defines new symbolic variables before the variable uses them.
template <typename R>
bool ReduceFields(R& r, const MatchCastNode& a, const MatchCastNode& b) {
  return r.Child(Field("value"), a.value.get(), b.value.get()) &&
         r.Child(Field("struct_info"), a.struct_info.get(), b.struct_info.get()) &&
         r.Child(Field("var"), a.var.get(), b.var.get());
}
template <typename R>
bool ReduceFields(R& r, const BindingBlockNode& a, const BindingBlockNode& b) {
  return ReduceList(r, "bindings", a.bindings, b.bindings);
}

// ---------------------------------------------------------------------------
// Attribute containers.

template <typename R>
bool ReduceFields(R& r, const ir::ArrayNode& a, const ir::ArrayNode& b) {
  if (!r.Size(Field(nullptr), a.elements.size(), b.elements.size())) return false;
  for (size_t i = 0; i < a.elements.size(); ++i) {
    if (!r.Child(Element(nullptr, i), a.elements[i].get(), b.elements[i].get())) return false;
  }
  return true;
}

// Items sorted by key, so that key order does not matter.
inline std::vector<const ir::DictNode::Item*> SortedItems(const ir::DictNode& dict) {
  std::vector<const ir::DictNode::Item*> items;
  items.reserve(dict.items.size());
  for (const auto& item : dict.items) items.push_back(&item);
  std::stable_sort(items.begin(), items.end(), [](const auto* x, const auto* y) { return x->first < y->first; });
  return items;
}

// Walks both key sets in sorted order; a key present on one side only is
// reported through the reducer's Missing hook.
template <typename R>
bool ReduceFields(R& r, const ir::DictNode& a, const ir::DictNode& b) {
  auto lhs = SortedItems(a);
  auto rhs = SortedItems(b);
  size_t i = 0, j = 0;
  while (i < lhs.size() || j < rhs.size()) {
    bool lhs_only = j == rhs.size() || (i < lhs.size() && lhs[i]->first < rhs[j]->first);
    bool rhs_only = !lhs_only && (i == lhs.size() || rhs[j]->first < lhs[i]->first);
    if (lhs_only) return r.Missing(Keyed(nullptr, lhs[i]->first), lhs[i]->second.get(), nullptr);
    if (rhs_only) return r.Missing(Keyed(nullptr, rhs[j]->first), nullptr, rhs[j]->second.get());
    const std::string& key = lhs[i]->first;
    if (!r.Value(Keyed(nullptr, key), key, rhs[j]->first)) return false;
    if (!r.Child(Keyed(nullptr, key), lhs[i]->second.get(), rhs[j]->second.get())) return false;
    ++i;
    ++j;
  }
  return r.Size(Field(nullptr), lhs.size(), rhs.size());
}

// ---------------------------------------------------------------------------
// Dispatch. `a` and `b` are non-null and of the same kind.

template <typename R>
bool ReduceNode(R& r, const Node* a, const Node* b) {
  switch (a->kind()) {
#define RLX_REDUCE_CASE(Kind, Class) \
  case NodeKind::Kind:               \
    return ReduceFields(r, static_cast<const Class&>(*a), static_cast<const Class&>(*b));
#define RLX_REDUCE_PRIM(Name) RLX_REDUCE_CASE(kPrim##Name, ir::Name##Node)
    RLX_PRIM_EXPR_NODES(RLX_REDUCE_PRIM)
#undef RLX_REDUCE_PRIM
#define RLX_REDUCE_STMT(Name) RLX_REDUCE_CASE(k##Name, tir::Name##Node)
    RLX_STMT_NODES(RLX_REDUCE_STMT)
#undef RLX_REDUCE_STMT
#define RLX_REDUCE_GRAPH(Name) RLX_REDUCE_CASE(kGraph##Name, graph::Name##Node)
    RLX_GRAPH_EXPR_NODES(RLX_REDUCE_GRAPH)
#undef RLX_REDUCE_GRAPH
#define RLX_REDUCE_SINFO(Name) RLX_REDUCE_CASE(k##Name, graph::Name##Node)
    RLX_STRUCT_INFO_NODES(RLX_REDUCE_SINFO)
#undef RLX_REDUCE_SINFO
    RLX_REDUCE_CASE(kArray, ir::ArrayNode)
    RLX_REDUCE_CASE(kDict, ir::DictNode)
    RLX_REDUCE_CASE(kIterVar, tir::IterVarNode)
    RLX_REDUCE_CASE(kBufferRegion, tir::BufferRegionNode)
    RLX_REDUCE_CASE(kMatchBufferRegion, tir::MatchBufferRegionNode)
    RLX_REDUCE_CASE(kPrimFunc, tir::PrimFuncNode)
    RLX_REDUCE_CASE(kVarBinding, graph::VarBindingNode)
    RLX_REDUCE_CASE(kMatchCast, graph::MatchCastNode)
    RLX_REDUCE_CASE(kBindingBlock, graph::BindingBlockNode)
    RLX_REDUCE_CASE(kDataflowBlock, graph::BindingBlockNode)
#undef RLX_REDUCE_CASE
    case NodeKind::kBuffer:
      return r.Buffer(static_cast<const ir::BufferNode&>(*a), static_cast<const ir::BufferNode&>(*b));
    case NodeKind::kIRModule:
      return r.Module(static_cast<const ir::IRModuleNode&>(*a), static_cast<const ir::IRModuleNode&>(*b));
    case NodeKind::kCount:
      break;
  }
  RLX_UNREACHABLE() << "structural comparison of an invalid node kind";
  return false;
}

}  // namespace rlx::graph::structural
