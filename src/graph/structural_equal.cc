// Structural equality with a path to the first difference.
//
// EqualReducer walks both trees in lockstep through ReduceFields
// (structural_fields.h) and stops at the first difference. It keeps:
// - a bijection between lhs and rhs variables and buffers (two maps), filled
//   at first sight on both sides; later occurrences must agree both ways;
// - on failure, the message at the difference and the steps from there back
//   up to the root, appended while the recursion unwinds (so nothing is
//   formatted while the trees agree).
// A PrimExpr is reported whole: failures below the outermost PrimExpr are
// folded into "lhs <expr>, rhs <expr>", with the inner path and message as a
// note when the renderings alone would not show the difference (a dtype, a
// variable correspondence).
#include <cstring>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "graph/structural_fields.h"
#include "rlx/graph/structural_equal.h"

namespace rlx::graph {
namespace {

using structural::FloatBits;
using structural::Presence;
using structural::Step;

// --- Rendering of scalars and nodes for messages ---------------------------

std::string Render(int64_t value) { return std::to_string(value); }
std::string Render(int value) { return std::to_string(value); }
std::string Render(bool value) { return value ? "true" : "false"; }
std::string Render(const std::string& value) { return fmt::format("\"{}\"", value); }
std::string Render(DataType dtype) { return dtype.is_void() ? "void" : dtype.ToString(); }
std::string Render(tir::IterKind kind) { return tir::IterKindName(kind); }
std::string Render(tir::ForKind kind) { return tir::ForKindName(kind); }
std::string Render(Presence presence) { return presence.known ? "known" : "unknown"; }
std::string Render(FloatBits bits) { return fmt::format("{}", bits.value); }
std::string Render(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::string DescribeGraphExpr(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kGraphVar:
      return "Var " + static_cast<const VarNode*>(node)->name_hint;
    case NodeKind::kGraphDataflowVar:
      return "DataflowVar " + static_cast<const VarNode*>(node)->name_hint;
    case NodeKind::kGraphGlobalVar:
      return "GlobalVar @" + static_cast<const GlobalVarNode*>(node)->name_hint;
    case NodeKind::kGraphOp:
      return "Op " + static_cast<const OpNode*>(node)->name;
    case NodeKind::kGraphExternFunc:
      return "ExternFunc " + Render(static_cast<const ExternFuncNode*>(node)->global_symbol);
    case NodeKind::kGraphStringImm:
      return "StringImm " + Render(static_cast<const StringImmNode*>(node)->value);
    case NodeKind::kGraphDataTypeImm:
      return "DataTypeImm " + static_cast<const DataTypeImmNode*>(node)->value.ToString();
    case NodeKind::kGraphShapeExpr:
      return "ShapeExpr " + ir::ShapeToString(static_cast<const ShapeExprNode*>(node)->values);
    case NodeKind::kGraphPrimValue:
      return "PrimValue " + ir::ToString(static_cast<const PrimValueNode*>(node)->value);
    case NodeKind::kGraphConstant:
      return "Constant " + ToString(static_cast<const ConstantNode*>(node)->struct_info);
    case NodeKind::kGraphCall: {
      const auto* call = static_cast<const CallNode*>(node);
      return call->op.defined() ? "Call to " + DescribeGraphExpr(call->op.get()) : "Call";
    }
    default:
      return NodeKindName(node->kind());
  }
}

// A short description of any node: its kind and what identifies it.
std::string Describe(const Node* node) {
  if (node == nullptr) return "undefined";
  if (NodeIsA<ir::PrimExprNode>(node)) return ir::ToString(ir::PrimExpr(static_cast<const ir::PrimExprNode*>(node)));
  if (NodeIsA<StructInfoNode>(node)) return ToString(StructInfo(static_cast<const StructInfoNode*>(node)));
  if (NodeIsA<ExprNode>(node)) return DescribeGraphExpr(node);
  switch (node->kind()) {
    case NodeKind::kBuffer: {
      const auto* buffer = static_cast<const ir::BufferNode*>(node);
      return fmt::format("Buffer {} {} {}", buffer->name, ir::ShapeToString(buffer->shape), Render(buffer->dtype));
    }
    case NodeKind::kBlock:
      return "Block " + Render(static_cast<const tir::BlockNode*>(node)->name);
    case NodeKind::kFor:
      return "For " + static_cast<const tir::ForNode*>(node)->loop_var->name_hint;
    case NodeKind::kBindingBlock:
    case NodeKind::kDataflowBlock:
      return fmt::format("{} of {} bindings", NodeKindName(node->kind()),
                         static_cast<const BindingBlockNode*>(node)->bindings.size());
    case NodeKind::kArray:
      return fmt::format("Array of {} elements", static_cast<const ir::ArrayNode*>(node)->elements.size());
    case NodeKind::kDict:
      return fmt::format("Dict of {} entries", static_cast<const ir::DictNode*>(node)->items.size());
    default:
      return NodeKindName(node->kind());
  }
}

std::string RenderStep(const Step& step) {
  std::string out;
  if (step.field != nullptr) out += fmt::format(".{}", step.field);
  if (step.index >= 0) out += fmt::format("[{}]", step.index);
  if (step.key != nullptr) out += fmt::format("[\"{}\"]", *step.key);
  if (step.sub != nullptr) out += fmt::format(".{}", step.sub);
  return out;
}

// --- The reducer -------------------------------------------------------------

class EqualReducer {
 public:
  // True when equal; otherwise Report() describes the first difference.
  bool Compare(const Node* a, const Node* b) {
    if (a == nullptr || b == nullptr) {
      if (a == b || structural::IsEmptyDict(a) || structural::IsEmptyDict(b)) return true;
      return Fail(Describe(a), Describe(b));
    }
    if (a->kind() != b->kind()) return Fail(Describe(a), Describe(b));
    if (in_prim_expr_ || !NodeIsA<ir::PrimExprNode>(a)) return structural::ReduceNode(*this, a, b);
    return ComparePrimExprRoot(a, b);
  }

  std::string Report() const {
    std::string path;
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) path += RenderStep(*it);
    if (!path.empty() && path[0] == '.') path.erase(0, 1);
    return path.empty() ? message_ : path + ": " + message_;
  }

  // --- Reducer interface (see structural_fields.h) ---

  bool Child(const Step& step, const Node* a, const Node* b) { return Compare(a, b) || Push(step); }

  template <typename T>
  bool Value(const Step& step, const T& a, const T& b) {
    if (a == b) return true;
    Fail(Render(a), Render(b));
    return Push(step);
  }

  bool Size(const Step& step, size_t a, size_t b) {
    if (a == b) return true;
    Fail(fmt::format("{} elements", a), fmt::format("{} elements", b));
    return Push(step);
  }

  bool Missing(const Step& step, const Node* a, const Node* b) {
    Fail(a ? Describe(a) : "(absent)", b ? Describe(b) : "(absent)");
    return Push(step);
  }

  bool PrimVar(const ir::VarNode& a, const ir::VarNode& b) {
    bool first_sight = false;
    if (!Correspond(&a, &b, &first_sight)) return false;
    if (!first_sight) return true;
    if (a.dtype != b.dtype || a.pointee != b.pointee) {
      note_needed_ = true;
      return Fail(fmt::format("{}: {}", a.name_hint, Render(a.dtype)), fmt::format("{}: {}", b.name_hint, Render(b.dtype)));
    }
    return true;
  }

  // A graph variable's struct info is compared where it is first seen (its
  // definition, in well-formed IR).
  bool GraphVar(const VarNode& a, const VarNode& b) {
    bool first_sight = false;
    if (!Correspond(&a, &b, &first_sight)) return false;
    return !first_sight || Child(structural::Field("struct_info"), a.struct_info.get(), b.struct_info.get());
  }

  bool Buffer(const ir::BufferNode& a, const ir::BufferNode& b) {
    bool first_sight = false;
    if (!Correspond(&a, &b, &first_sight)) return false;
    return !first_sight || structural::ReduceBufferFields(*this, a, b);
  }

  bool Constant(const ConstantNode& a, const ConstantNode& b) {
    if (a.data == b.data) return true;
    if (a.data == nullptr || b.data == nullptr) return Fail(a.data ? "data" : "no data", b.data ? "data" : "no data");
    const TensorData& x = *a.data;
    const TensorData& y = *b.data;
    if (!Value(structural::SubField("data", "dtype"), x.dtype, y.dtype)) return false;
    if (!Value(structural::SubField("data", "shape"), x.shape, y.shape)) return false;
    if (!Size(structural::SubField("data", "bytes"), x.bytes.size(), y.bytes.size())) return false;
    if (x.bytes.empty() || std::memcmp(x.bytes.data(), y.bytes.data(), x.bytes.size()) == 0) return true;
    size_t at = 0;
    while (x.bytes[at] == y.bytes[at]) ++at;
    message_ = fmt::format("payloads differ, first at byte {} (lhs 0x{:02x}, rhs 0x{:02x})", at, x.bytes[at], y.bytes[at]);
    return Push(structural::SubField("data", "bytes"));
  }

  // Functions by name, in any order, each with a fresh correspondence.
  bool Module(const ir::IRModuleNode& a, const ir::IRModuleNode& b) {
    std::unordered_map<std::string_view, const Node*> rhs_functions;
    for (const auto& [name, func] : b.functions) rhs_functions.emplace(name, func.get());
    for (const auto& [name, func] : a.functions) {
      if (!rhs_functions.contains(name)) return Missing(structural::Keyed("functions", name), func.get(), nullptr);
    }
    std::unordered_map<std::string_view, const Node*> lhs_functions;
    for (const auto& [name, func] : a.functions) lhs_functions.emplace(name, func.get());
    for (const auto& [name, func] : b.functions) {
      if (!lhs_functions.contains(name)) return Missing(structural::Keyed("functions", name), nullptr, func.get());
    }
    for (const auto& [name, func] : a.functions) {
      if (!CompareFunction(structural::Keyed("functions", name), func.get(), rhs_functions.at(name))) return false;
    }
    return Child(structural::Field("attrs"), a.attrs.get(), b.attrs.get()) &&
           Child(structural::Field("global_infos"), a.global_infos.get(), b.global_infos.get());
  }

  bool DerivedStructInfo(const Node* a, const Node* b) {
    return a == nullptr || b == nullptr || Child(structural::Field("struct_info"), a, b);
  }

 private:
  using NodeMap = std::unordered_map<const Node*, const Node*>;

  // Records the message at the difference; always false.
  bool Fail(const std::string& lhs, const std::string& rhs) {
    message_ = fmt::format("lhs {}, rhs {}", lhs, rhs);
    return false;
  }
  // Adds a step while unwinding from a failure; always false.
  bool Push(const Step& step) {
    path_.push_back(step);
    return false;
  }

  // Checks (and at first sight on both sides, records) that `a` corresponds
  // to `b`. The caller has checked that the kinds match.
  bool Correspond(const Node* a, const Node* b, bool* first_sight) {
    auto lhs_it = lhs_to_rhs_.find(a);
    auto rhs_it = rhs_to_lhs_.find(b);
    if (lhs_it == lhs_to_rhs_.end() && rhs_it == rhs_to_lhs_.end()) {
      lhs_to_rhs_.emplace(a, b);
      rhs_to_lhs_.emplace(b, a);
      *first_sight = true;
      return true;
    }
    if (lhs_it != lhs_to_rhs_.end() && lhs_it->second == b) return true;
    std::string lhs_note = lhs_it == lhs_to_rhs_.end() ? "first seen here"
                                                        : "matched earlier with rhs " + Describe(lhs_it->second);
    std::string rhs_note = rhs_it == rhs_to_lhs_.end() ? "first seen here"
                                                        : "matched earlier with lhs " + Describe(rhs_it->second);
    note_needed_ = true;
    return Fail(fmt::format("{} ({})", Describe(a), lhs_note), fmt::format("{} ({})", Describe(b), rhs_note));
  }

  bool ComparePrimExprRoot(const Node* a, const Node* b) {
    size_t depth = path_.size();
    note_needed_ = false;
    in_prim_expr_ = true;
    bool equal = structural::ReduceNode(*this, a, b);
    in_prim_expr_ = false;
    if (!equal) FoldIntoRoot(a, b, depth);
    return equal;
  }

  // Replaces the failure inside a PrimExpr by one about the whole PrimExpr.
  void FoldIntoRoot(const Node* a, const Node* b, size_t depth) {
    std::string inner_path;
    for (size_t i = path_.size(); i > depth; --i) inner_path += RenderStep(path_[i - 1]);
    if (!inner_path.empty() && inner_path[0] == '.') inner_path.erase(0, 1);
    std::string inner = inner_path.empty() ? message_ : "at " + inner_path + ": " + message_;
    path_.resize(depth);
    std::string lhs = Describe(a);
    std::string rhs = Describe(b);
    bool add_note = note_needed_ || lhs == rhs;
    message_ = fmt::format("lhs {}, rhs {}", lhs, rhs);
    if (add_note) message_ += " (" + inner + ")";
  }

  bool CompareFunction(const Step& step, const Node* a, const Node* b) {
    NodeMap outer_lhs, outer_rhs;
    std::swap(outer_lhs, lhs_to_rhs_);
    std::swap(outer_rhs, rhs_to_lhs_);
    bool equal = Child(step, a, b);
    std::swap(outer_lhs, lhs_to_rhs_);
    std::swap(outer_rhs, rhs_to_lhs_);
    return equal;
  }

  NodeMap lhs_to_rhs_;
  NodeMap rhs_to_lhs_;
  bool in_prim_expr_ = false;
  bool note_needed_ = false;
  std::string message_;
  std::vector<Step> path_;  // innermost first
};

}  // namespace

bool StructuralEqual(const ObjectRef& lhs, const ObjectRef& rhs) {
  EqualReducer reducer;
  return reducer.Compare(lhs.get(), rhs.get());
}

std::optional<std::string> StructuralMismatch(const ObjectRef& lhs, const ObjectRef& rhs) {
  EqualReducer reducer;
  if (reducer.Compare(lhs.get(), rhs.get())) return std::nullopt;
  return reducer.Report();
}

}  // namespace rlx::graph
