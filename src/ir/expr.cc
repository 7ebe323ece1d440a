// PrimExpr constructors and the message-friendly rendering.
//
// Binary constructors match operand types the way TVM's do: an integer
// literal takes the other side's type; otherwise the narrower integer is cast
// to the wider, and an integer meeting a float is cast to the float type.
// Comparison and logical nodes have bool type.
#include "rlx/ir/expr.h"

#include <cmath>
#include <sstream>

namespace rlx::ir {

BufferLoadNode::BufferLoadNode(Buffer buffer, std::vector<PrimExpr> indices)
    : PrimExprNode(kKind, buffer->dtype), buffer(std::move(buffer)), indices(std::move(indices)) {
  // A vector index loads a vector.
  for (const PrimExpr& index : this->indices) {
    if (index->dtype.lanes() > 1) dtype = dtype.with_lanes(index->dtype.lanes());
  }
}

Buffer MakeBuffer(std::string name, std::vector<PrimExpr> shape, DataType dtype, std::string scope) {
  auto* node = new BufferNode();
  node->data = MakeVar(name, DataType::Handle());
  const_cast<VarNode*>(node->data.get())->pointee = dtype;
  node->name = std::move(name);
  node->dtype = dtype;
  node->shape = std::move(shape);
  node->scope = std::move(scope);
  return Buffer(node);
}

IntImm MakeInt(int64_t value, DataType dtype) { return make<IntImmNode>(dtype, value); }
FloatImm MakeFloat(double value, DataType dtype) { return make<FloatImmNode>(dtype, value); }
IntImm MakeBool(bool value) { return make<IntImmNode>(DataType::Bool(), value ? 1 : 0); }
Var MakeVar(std::string name, DataType dtype) { return make<VarNode>(std::move(name), dtype); }
StringImm MakeString(std::string value) { return make<StringImmNode>(std::move(value)); }

PrimExpr cast(DataType dtype, PrimExpr value) {
  if (value->dtype == dtype) return value;
  if (const auto* imm = value.as<IntImmNode>()) {
    if (dtype.is_integer() || dtype.is_bool()) return MakeInt(dtype.is_bool() ? imm->value != 0 : imm->value, dtype);
    if (dtype.is_floating()) return MakeFloat(static_cast<double>(imm->value), dtype);
  }
  if (const auto* imm = value.as<FloatImmNode>(); imm && dtype.is_floating()) {
    return MakeFloat(imm->value, dtype);
  }
  return make<CastNode>(dtype, std::move(value));
}

namespace {

bool IsLiteral(const PrimExpr& e) { return e.isa<IntImmNode>() || e.isa<FloatImmNode>(); }

// Brings `a` and `b` to one dtype (see the file comment).
void MatchTypes(PrimExpr& a, PrimExpr& b) {
  DataType ta = a->dtype, tb = b->dtype;
  if (ta == tb) return;
  RLX_ICHECK(ta.lanes() == tb.lanes()) << "operand lanes differ: " << ta.ToString() << " vs " << tb.ToString();
  if (IsLiteral(b) && !IsLiteral(a) && !(tb.is_floating() && !ta.is_floating())) {
    b = cast(ta, b);
    return;
  }
  if (IsLiteral(a) && !IsLiteral(b) && !(ta.is_floating() && !tb.is_floating())) {
    a = cast(tb, a);
    return;
  }
  if (ta.is_floating() != tb.is_floating()) {
    if (ta.is_floating()) b = cast(ta, b);
    else a = cast(tb, a);
    return;
  }
  if (ta.bits() >= tb.bits()) b = cast(ta, b);
  else a = cast(tb, a);
}

template <typename T>
PrimExpr MakeArith(PrimExpr a, PrimExpr b) {
  MatchTypes(a, b);
  DataType dtype = a->dtype;
  return make<T>(dtype, std::move(a), std::move(b));
}

template <typename T>
PrimExpr MakeCompare(PrimExpr a, PrimExpr b) {
  MatchTypes(a, b);
  return make<T>(DataType::Bool(a->dtype.lanes()), std::move(a), std::move(b));
}

PrimExpr ToBool(PrimExpr e) { return e->dtype.is_bool() ? e : ne(e, MakeInt(0, e->dtype)); }

}  // namespace

PrimExpr add(PrimExpr a, PrimExpr b) { return MakeArith<AddNode>(std::move(a), std::move(b)); }
PrimExpr sub(PrimExpr a, PrimExpr b) { return MakeArith<SubNode>(std::move(a), std::move(b)); }
PrimExpr mul(PrimExpr a, PrimExpr b) { return MakeArith<MulNode>(std::move(a), std::move(b)); }
PrimExpr truncdiv(PrimExpr a, PrimExpr b) { return MakeArith<DivNode>(std::move(a), std::move(b)); }
PrimExpr truncmod(PrimExpr a, PrimExpr b) { return MakeArith<ModNode>(std::move(a), std::move(b)); }
PrimExpr floordiv(PrimExpr a, PrimExpr b) { return MakeArith<FloorDivNode>(std::move(a), std::move(b)); }
PrimExpr floormod(PrimExpr a, PrimExpr b) { return MakeArith<FloorModNode>(std::move(a), std::move(b)); }
PrimExpr min(PrimExpr a, PrimExpr b) { return MakeArith<MinNode>(std::move(a), std::move(b)); }
PrimExpr max(PrimExpr a, PrimExpr b) { return MakeArith<MaxNode>(std::move(a), std::move(b)); }
PrimExpr eq(PrimExpr a, PrimExpr b) { return MakeCompare<EQNode>(std::move(a), std::move(b)); }
PrimExpr ne(PrimExpr a, PrimExpr b) { return MakeCompare<NENode>(std::move(a), std::move(b)); }
PrimExpr lt(PrimExpr a, PrimExpr b) { return MakeCompare<LTNode>(std::move(a), std::move(b)); }
PrimExpr le(PrimExpr a, PrimExpr b) { return MakeCompare<LENode>(std::move(a), std::move(b)); }
PrimExpr gt(PrimExpr a, PrimExpr b) { return MakeCompare<GTNode>(std::move(a), std::move(b)); }
PrimExpr ge(PrimExpr a, PrimExpr b) { return MakeCompare<GENode>(std::move(a), std::move(b)); }
PrimExpr logical_and(PrimExpr a, PrimExpr b) {
  a = ToBool(std::move(a));
  b = ToBool(std::move(b));
  DataType dtype = a->dtype;
  return make<AndNode>(dtype, std::move(a), std::move(b));
}
PrimExpr logical_or(PrimExpr a, PrimExpr b) {
  a = ToBool(std::move(a));
  b = ToBool(std::move(b));
  DataType dtype = a->dtype;
  return make<OrNode>(dtype, std::move(a), std::move(b));
}
PrimExpr logical_not(PrimExpr a) { return make<NotNode>(ToBool(std::move(a))); }
PrimExpr select(PrimExpr cond, PrimExpr t, PrimExpr f) {
  MatchTypes(t, f);
  return make<SelectNode>(ToBool(std::move(cond)), std::move(t), std::move(f));
}
PrimExpr call(DataType dtype, std::string op, std::vector<PrimExpr> args) {
  return make<CallNode>(dtype, std::move(op), std::move(args));
}

PrimExpr MakeBinary(NodeKind kind, PrimExpr a, PrimExpr b) {
  switch (kind) {
    case NodeKind::kPrimAdd: return add(std::move(a), std::move(b));
    case NodeKind::kPrimSub: return sub(std::move(a), std::move(b));
    case NodeKind::kPrimMul: return mul(std::move(a), std::move(b));
    case NodeKind::kPrimDiv: return truncdiv(std::move(a), std::move(b));
    case NodeKind::kPrimMod: return truncmod(std::move(a), std::move(b));
    case NodeKind::kPrimFloorDiv: return floordiv(std::move(a), std::move(b));
    case NodeKind::kPrimFloorMod: return floormod(std::move(a), std::move(b));
    case NodeKind::kPrimMin: return min(std::move(a), std::move(b));
    case NodeKind::kPrimMax: return max(std::move(a), std::move(b));
    case NodeKind::kPrimEQ: return eq(std::move(a), std::move(b));
    case NodeKind::kPrimNE: return ne(std::move(a), std::move(b));
    case NodeKind::kPrimLT: return lt(std::move(a), std::move(b));
    case NodeKind::kPrimLE: return le(std::move(a), std::move(b));
    case NodeKind::kPrimGT: return gt(std::move(a), std::move(b));
    case NodeKind::kPrimGE: return ge(std::move(a), std::move(b));
    case NodeKind::kPrimAnd: return logical_and(std::move(a), std::move(b));
    case NodeKind::kPrimOr: return logical_or(std::move(a), std::move(b));
    default: RLX_UNREACHABLE() << "not a binary kind: " << NodeKindName(kind);
  }
}

PrimExpr operator+(PrimExpr a, int64_t b) { DataType t = a->dtype; return add(std::move(a), MakeInt(b, t)); }
PrimExpr operator-(PrimExpr a, int64_t b) { DataType t = a->dtype; return sub(std::move(a), MakeInt(b, t)); }
PrimExpr operator*(PrimExpr a, int64_t b) { DataType t = a->dtype; return mul(std::move(a), MakeInt(b, t)); }
PrimExpr operator+(int64_t a, PrimExpr b) { DataType t = b->dtype; return add(MakeInt(a, t), std::move(b)); }
PrimExpr operator-(int64_t a, PrimExpr b) { DataType t = b->dtype; return sub(MakeInt(a, t), std::move(b)); }
PrimExpr operator*(int64_t a, PrimExpr b) { DataType t = b->dtype; return mul(MakeInt(a, t), std::move(b)); }
PrimExpr floordiv(PrimExpr a, int64_t b) { DataType t = a->dtype; return floordiv(std::move(a), MakeInt(b, t)); }
PrimExpr floormod(PrimExpr a, int64_t b) { DataType t = a->dtype; return floormod(std::move(a), MakeInt(b, t)); }

std::optional<int64_t> AsConstInt(const PrimExpr& expr) {
  if (const auto* imm = expr.as<IntImmNode>()) return imm->value;
  return std::nullopt;
}

bool IsConstInt(const PrimExpr& expr, int64_t value) {
  std::optional<int64_t> v = AsConstInt(expr);
  return v && *v == value;
}

const char* BinaryOpName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kPrimAdd: return "+";
    case NodeKind::kPrimSub: return "-";
    case NodeKind::kPrimMul: return "*";
    case NodeKind::kPrimDiv: return "truncdiv";
    case NodeKind::kPrimMod: return "truncmod";
    case NodeKind::kPrimFloorDiv: return "//";
    case NodeKind::kPrimFloorMod: return "%";
    case NodeKind::kPrimMin: return "min";
    case NodeKind::kPrimMax: return "max";
    case NodeKind::kPrimEQ: return "==";
    case NodeKind::kPrimNE: return "!=";
    case NodeKind::kPrimLT: return "<";
    case NodeKind::kPrimLE: return "<=";
    case NodeKind::kPrimGT: return ">";
    case NodeKind::kPrimGE: return ">=";
    case NodeKind::kPrimAnd: return "and";
    case NodeKind::kPrimOr: return "or";
    default: return "?";
  }
}

namespace {

// Precedence for the message rendering: higher binds tighter.
int Precedence(const PrimExpr& e) {
  switch (e->kind()) {
    case NodeKind::kPrimOr: return 1;
    case NodeKind::kPrimAnd: return 2;
    case NodeKind::kPrimNot: return 3;
    case NodeKind::kPrimEQ: case NodeKind::kPrimNE: case NodeKind::kPrimLT:
    case NodeKind::kPrimLE: case NodeKind::kPrimGT: case NodeKind::kPrimGE: return 4;
    case NodeKind::kPrimAdd: case NodeKind::kPrimSub: return 5;
    case NodeKind::kPrimMul: case NodeKind::kPrimFloorDiv: case NodeKind::kPrimFloorMod: return 6;
    default: return 10;
  }
}

void Render(const PrimExpr& e, std::ostringstream& os);

void RenderOperand(const PrimExpr& e, int parent_prec, bool right, std::ostringstream& os) {
  int prec = Precedence(e);
  bool parens = prec < parent_prec || (right && prec == parent_prec);
  if (parens) os << '(';
  Render(e, os);
  if (parens) os << ')';
}

void RenderList(const std::vector<PrimExpr>& list, std::ostringstream& os) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) os << ", ";
    Render(list[i], os);
  }
}

void Render(const PrimExpr& e, std::ostringstream& os) {
  if (!e.defined()) {
    os << "<undefined>";
    return;
  }
  if (const auto* imm = e.as<IntImmNode>()) {
    if (imm->dtype.is_bool()) os << (imm->value ? "True" : "False");
    else os << imm->value;
  } else if (const auto* f = e.as<FloatImmNode>()) {
    os << f->value;
  } else if (const auto* s = e.as<StringImmNode>()) {
    os << '"' << s->value << '"';
  } else if (const auto* v = e.as<VarNode>()) {
    os << v->name_hint;
  } else if (const auto* bin = e.as<BinaryNode>()) {
    const char* name = BinaryOpName(e->kind());
    bool infix = !(e->kind() == NodeKind::kPrimMin || e->kind() == NodeKind::kPrimMax ||
                   e->kind() == NodeKind::kPrimDiv || e->kind() == NodeKind::kPrimMod);
    if (infix) {
      int prec = Precedence(e);
      RenderOperand(bin->a, prec, false, os);
      os << ' ' << name << ' ';
      RenderOperand(bin->b, prec, true, os);
    } else {
      os << name << '(';
      Render(bin->a, os);
      os << ", ";
      Render(bin->b, os);
      os << ')';
    }
  } else if (const auto* n = e.as<NotNode>()) {
    os << "not ";
    RenderOperand(n->a, 3, false, os);
  } else if (const auto* sel = e.as<SelectNode>()) {
    os << "select(";
    RenderList({sel->condition, sel->true_value, sel->false_value}, os);
    os << ')';
  } else if (const auto* c = e.as<CastNode>()) {
    os << c->dtype.ToString() << '(';
    Render(c->value, os);
    os << ')';
  } else if (const auto* let = e.as<LetNode>()) {
    os << "let " << let->var->name_hint << " = ";
    Render(let->value, os);
    os << " in ";
    Render(let->body, os);
  } else if (const auto* call = e.as<CallNode>()) {
    os << call->op << '(';
    RenderList(call->args, os);
    os << ')';
  } else if (const auto* load = e.as<BufferLoadNode>()) {
    os << load->buffer->name << '[';
    RenderList(load->indices, os);
    os << ']';
  } else if (const auto* ramp = e.as<RampNode>()) {
    os << "ramp(";
    RenderList({ramp->base, ramp->stride}, os);
    os << ", " << ramp->lanes << ')';
  } else if (const auto* bc = e.as<BroadcastNode>()) {
    os << "broadcast(";
    Render(bc->value, os);
    os << ", " << bc->lanes << ')';
  } else {
    os << NodeKindName(e->kind());
  }
}

}  // namespace

std::string ToString(const PrimExpr& expr) {
  std::ostringstream os;
  Render(expr, os);
  return os.str();
}

std::string ShapeToString(const std::vector<PrimExpr>& shape) {
  std::ostringstream os;
  os << '(';
  RenderList(shape, os);
  if (shape.size() == 1) os << ',';
  os << ')';
  return os.str();
}

}  // namespace rlx::ir
