// Structural total order on PrimExprs (see expr_order.h).
#include "arith/expr_order.h"

#include <cstring>
#include <string>

namespace rlx::arith::detail {
namespace {

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareDtypes(DataType a, DataType b) {
  if (int c = Cmp(static_cast<int>(a.code()), static_cast<int>(b.code()))) return c;
  if (int c = Cmp(a.bits(), b.bits())) return c;
  return Cmp(a.lanes(), b.lanes());
}

// Doubles by bit pattern, so NaNs order too.
int CompareDoubles(double a, double b) {
  uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return Cmp(x, y);
}

}  // namespace

int ExprOrder::Compare(const ir::PrimExpr& a, const ir::PrimExpr& b) {
  if (a.same_as(b)) return 0;
  if (!a.defined() || !b.defined()) return a.defined() ? 1 : -1;
  if (int c = Cmp(static_cast<int>(a->kind()), static_cast<int>(b->kind()))) return c;
  if (int c = CompareDtypes(a->dtype, b->dtype)) return c;
  return CompareFields(a, b);
}

int ExprOrder::CompareFields(const ir::PrimExpr& a, const ir::PrimExpr& b) {
  using namespace ir;
  if (const auto* x = a.as<IntImmNode>()) return Cmp(x->value, b.as<IntImmNode>()->value);
  if (const auto* x = a.as<FloatImmNode>()) return CompareDoubles(x->value, b.as<FloatImmNode>()->value);
  if (const auto* x = a.as<StringImmNode>()) return Cmp(x->value, b.as<StringImmNode>()->value);
  if (const auto* x = a.as<VarNode>()) return CompareVars(x, b.as<VarNode>());
  if (const auto* x = a.as<BinaryNode>()) {
    const auto* y = b.as<BinaryNode>();
    if (int c = Compare(x->a, y->a)) return c;
    return Compare(x->b, y->b);
  }
  if (const auto* x = a.as<NotNode>()) return Compare(x->a, b.as<NotNode>()->a);
  if (const auto* x = a.as<SelectNode>()) {
    const auto* y = b.as<SelectNode>();
    if (int c = Compare(x->condition, y->condition)) return c;
    if (int c = Compare(x->true_value, y->true_value)) return c;
    return Compare(x->false_value, y->false_value);
  }
  if (const auto* x = a.as<CastNode>()) return Compare(x->value, b.as<CastNode>()->value);
  if (const auto* x = a.as<LetNode>()) {
    const auto* y = b.as<LetNode>();
    if (int c = CompareVars(x->var.get(), y->var.get())) return c;
    if (int c = Compare(x->value, y->value)) return c;
    return Compare(x->body, y->body);
  }
  if (const auto* x = a.as<CallNode>()) {
    const auto* y = b.as<CallNode>();
    if (int c = Cmp(x->op, y->op)) return c;
    return CompareLists(x->args, y->args);
  }
  if (const auto* x = a.as<BufferLoadNode>()) {
    const auto* y = b.as<BufferLoadNode>();
    if (int c = CompareBuffers(x->buffer.get(), y->buffer.get())) return c;
    return CompareLists(x->indices, y->indices);
  }
  if (const auto* x = a.as<RampNode>()) {
    const auto* y = b.as<RampNode>();
    if (int c = Compare(x->base, y->base)) return c;
    if (int c = Compare(x->stride, y->stride)) return c;
    return Cmp(x->lanes, y->lanes);
  }
  if (const auto* x = a.as<BroadcastNode>()) {
    const auto* y = b.as<BroadcastNode>();
    if (int c = Compare(x->value, y->value)) return c;
    return Cmp(x->lanes, y->lanes);
  }
  RLX_UNREACHABLE() << "ExprOrder: unhandled node " << NodeKindName(a->kind());
}

int ExprOrder::CompareVars(const ir::VarNode* a, const ir::VarNode* b) {
  if (a == b) return 0;
  if (int c = a->name_hint.compare(b->name_hint)) return c < 0 ? -1 : 1;
  if (int c = CompareDtypes(a->dtype, b->dtype)) return c;
  return Cmp(Serial(a), Serial(b));
}

int ExprOrder::CompareBuffers(const ir::BufferNode* a, const ir::BufferNode* b) {
  if (a == b) return 0;
  if (int c = a->name.compare(b->name)) return c < 0 ? -1 : 1;
  return Cmp(Serial(a), Serial(b));
}

int ExprOrder::CompareLists(const std::vector<ir::PrimExpr>& a, const std::vector<ir::PrimExpr>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (int c = Compare(a[i], b[i])) return c;
  }
  return Cmp(a.size(), b.size());
}

int64_t ExprOrder::Serial(const Node* node) {
  auto it = serials_.find(node);
  if (it != serials_.end()) return it->second.second;
  int64_t serial = static_cast<int64_t>(serials_.size());
  serials_.emplace(node, std::make_pair(ObjectRef(node), serial));
  return serial;
}

}  // namespace rlx::arith::detail
