// EvaluateInt / EvaluateIntExact: a direct evaluator for integer and bool
// PrimExprs, independent of the simplifier (tests compare the two).
//
// Semantics (ir/expr.h): every value is computed exactly in 128 bits from its
// operands, then brought into the node's dtype: EvaluateInt wraps (two's
// complement, as the IR defines overflow), EvaluateIntExact reports overflow
// as nullopt instead. Casts always wrap. uint64 values travel as their bit
// pattern in an int64 and are decoded as unsigned for arithmetic, division
// and comparison. Bools are 0/1.
//
// Evaluation is strict: both operands of And/Or and both arms of Select are
// evaluated (a division by zero in either makes the whole expression
// undefined); only Call("if_then_else") evaluates just the chosen arm.
// nullopt means: an unbound variable, a division by zero, an overflow (exact
// mode), or a node that is not integer arithmetic (floats, loads, calls,
// vectors).
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arith/int_math.h"
#include "rlx/arith/analyzer.h"

namespace rlx::arith {
namespace {

using detail::int128;
using ValueMap = std::unordered_map<const ir::VarNode*, int64_t>;

bool IsUInt64(DataType dtype) { return dtype.is_uint() && dtype.bits() >= 64; }

// The mathematical value of a stored int64 of `dtype`.
int128 Decode(int64_t stored, DataType dtype) {
  if (IsUInt64(dtype)) return static_cast<int128>(static_cast<uint64_t>(stored));
  return stored;
}

class Evaluator {
 public:
  Evaluator(const ValueMap& values, bool exact) : values_(values), exact_(exact) {}

  std::optional<int64_t> Eval(const PrimExpr& e) {
    std::optional<int128> v = Value(e);
    if (!v) return std::nullopt;
    return detail::WrapToDtype(*v, e->dtype);
  }

 private:
  // The decoded (mathematical) value of `e`, already brought into its dtype.
  std::optional<int128> Value(const PrimExpr& e) {
    if (!(e->dtype.is_integer() || e->dtype.is_bool()) || e->dtype.lanes() != 1) return std::nullopt;
    std::optional<int128> raw = RawValue(e);
    if (!raw) return std::nullopt;
    if (exact_ && e->kind() != NodeKind::kPrimCast && !detail::FitsDtype(*raw, e->dtype)) return std::nullopt;
    return Decode(detail::WrapToDtype(*raw, e->dtype), e->dtype);
  }

  std::optional<int128> RawValue(const PrimExpr& e) {
    switch (e->kind()) {
      case NodeKind::kPrimIntImm: return Decode(e.as<ir::IntImmNode>()->value, e->dtype);
      case NodeKind::kPrimVar: return VarValue(e.as<ir::VarNode>());
      case NodeKind::kPrimNot: {
        std::optional<int128> a = Value(e.as<ir::NotNode>()->a);
        if (!a) return std::nullopt;
        return *a == 0 ? 1 : 0;
      }
      case NodeKind::kPrimSelect: return SelectValue(e.as<ir::SelectNode>());
      case NodeKind::kPrimCast: return Value(e.as<ir::CastNode>()->value);
      case NodeKind::kPrimLet: return LetValue(e.as<ir::LetNode>());
      case NodeKind::kPrimCall: return CallValue(e.as<ir::CallNode>());
      default: break;
    }
    if (const auto* bin = e.as<ir::BinaryNode>()) return BinaryValue(e->kind(), bin, e->dtype);
    return std::nullopt;
  }

  std::optional<int128> VarValue(const ir::VarNode* var) {
    for (auto it = let_values_.rbegin(); it != let_values_.rend(); ++it) {
      if (it->first == var) return it->second;
    }
    auto it = values_.find(var);
    if (it == values_.end()) return std::nullopt;
    return Decode(detail::WrapToDtype(it->second, var->dtype), var->dtype);
  }

  std::optional<int128> BinaryValue(NodeKind kind, const ir::BinaryNode* op, DataType dtype) {
    std::optional<int128> a = Value(op->a);
    if (!a) return std::nullopt;
    std::optional<int128> b = Value(op->b);
    if (!b) return std::nullopt;
    switch (kind) {
      case NodeKind::kPrimAdd: return *a + *b;
      case NodeKind::kPrimSub: return *a - *b;
      case NodeKind::kPrimMul: return Multiply(*a, *b, dtype);
      case NodeKind::kPrimDiv: return *b == 0 ? std::nullopt : std::optional<int128>(*a / *b);
      case NodeKind::kPrimMod: return *b == 0 ? std::nullopt : std::optional<int128>(*a % *b);
      case NodeKind::kPrimFloorDiv: return *b == 0 ? std::nullopt : std::optional<int128>(detail::FloorDiv128(*a, *b));
      case NodeKind::kPrimFloorMod: return *b == 0 ? std::nullopt : std::optional<int128>(detail::FloorMod128(*a, *b));
      case NodeKind::kPrimMin: return *a < *b ? *a : *b;
      case NodeKind::kPrimMax: return *a > *b ? *a : *b;
      case NodeKind::kPrimEQ: return *a == *b;
      case NodeKind::kPrimNE: return *a != *b;
      case NodeKind::kPrimLT: return *a < *b;
      case NodeKind::kPrimLE: return *a <= *b;
      case NodeKind::kPrimGT: return *a > *b;
      case NodeKind::kPrimGE: return *a >= *b;
      case NodeKind::kPrimAnd: return *a != 0 && *b != 0;
      case NodeKind::kPrimOr: return *a != 0 || *b != 0;
      default: return std::nullopt;
    }
  }

  // Products of two uint64 values can exceed 128 signed bits; they are
  // computed modulo 2^64 (and rejected in exact mode when they wrap).
  std::optional<int128> Multiply(int128 a, int128 b, DataType dtype) {
    if (!IsUInt64(dtype)) return a * b;
    uint64_t out;
    bool wrapped = __builtin_mul_overflow(static_cast<uint64_t>(a), static_cast<uint64_t>(b), &out);
    if (wrapped && exact_) return std::nullopt;
    return static_cast<int128>(out);
  }

  std::optional<int128> SelectValue(const ir::SelectNode* op) {
    std::optional<int128> c = Value(op->condition);
    std::optional<int128> t = Value(op->true_value);
    std::optional<int128> f = Value(op->false_value);
    if (!c || !t || !f) return std::nullopt;
    return *c != 0 ? *t : *f;
  }

  std::optional<int128> LetValue(const ir::LetNode* op) {
    std::optional<int128> v = Value(op->value);
    if (!v) return std::nullopt;
    let_values_.emplace_back(op->var.get(), *v);
    std::optional<int128> body = Value(op->body);
    let_values_.pop_back();
    return body;
  }

  std::optional<int128> CallValue(const ir::CallNode* op) {
    if (op->op != "if_then_else" || op->args.size() != 3) return std::nullopt;
    std::optional<int128> c = Value(op->args[0]);
    if (!c) return std::nullopt;
    return Value(*c != 0 ? op->args[1] : op->args[2]);
  }

  const ValueMap& values_;
  bool exact_;
  std::vector<std::pair<const ir::VarNode*, int128>> let_values_;
};

}  // namespace

std::optional<int64_t> EvaluateInt(const PrimExpr& expr, const ValueMap& values) {
  return Evaluator(values, /*exact=*/false).Eval(expr);
}

std::optional<int64_t> EvaluateIntExact(const PrimExpr& expr, const ValueMap& values) {
  return Evaluator(values, /*exact=*/true).Eval(expr);
}

}  // namespace rlx::arith
