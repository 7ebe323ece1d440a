// Scalar-expression parsing, continued: buffer indices, loads and regions
// (`A[i, j]`, `A[i:i + 4]`, `A.shape[k]`, `T.reads(A[vi, 0:4])`), and
// attribute values (`{"key": value}` dictionaries of both levels). See
// parse_prim_expr.cc for the expression semantics.
#include <fmt/format.h>

#include <limits>

#include "rlx/arith/analyzer.h"
#include "text/parser_context.h"

namespace rlx::text::detail {

// ---------------------------------------------------------------------------
// Buffers.

std::vector<PrimExprParser::Index> PrimExprParser::EvalIndices(const ir::Buffer& buffer, const py::Subscript& sub) {
  std::vector<const py::Expr*> items;
  const auto* tuple = sub.index->As<py::Tuple>();
  if (tuple != nullptr && !tuple->parenthesized) {
    for (const py::ExprPtr& elt : tuple->elts) items.push_back(elt.get());
  } else if (tuple != nullptr && tuple->elts.empty()) {
    // `A[()]`: a 0-d buffer.
  } else {
    items.push_back(sub.index.get());
  }
  if (items.size() != buffer->shape.size()) {
    Fail(sub.span, fmt::format("buffer '{}' has {} dimension{} but is indexed with {} ind{}", buffer->name,
                               buffer->shape.size(), buffer->shape.size() == 1 ? "" : "s", items.size(),
                               items.size() == 1 ? "ex" : "ices"));
  }
  std::vector<Index> result;
  for (size_t d = 0; d < items.size(); ++d) {
    const py::Expr& item = *items[d];
    Index index;
    index.span = item.span;
    if (const auto* slice = item.As<py::Slice>()) {
      index.begin = slice->lower ? Eval(*slice->lower) : PrimExpr(ir::MakeInt(0, buffer->shape[d]->dtype));
      index.end = slice->upper ? Eval(*slice->upper) : buffer->shape[d];
      if (slice->step && !IsNone(slice->step.get())) {
        std::optional<int64_t> step = AsIntLiteral(*slice->step);
        if (!step || *step < 1) Fail(slice->step->span, "a slice step must be a positive integer literal");
        index.step = *step;
      }
    } else {
      index.begin = Eval(item);
    }
    result.push_back(std::move(index));
  }
  return result;
}

namespace {

PrimExpr SliceExtent(const PrimExprParser::Index& index) {
  PrimExpr begin = index.begin, end = index.end;
  MatchOperandTypes(begin, end, index.span, ":");
  arith::Analyzer analyzer;
  return analyzer.Simplify(ir::sub(end, begin));
}

}  // namespace

PrimExpr PrimExprParser::SliceRamp(const Index& index) {
  std::optional<int64_t> extent = ir::AsConstInt(SliceExtent(index));
  if (!extent || *extent < 1) Fail(index.span, "a vector slice needs a constant positive length");
  int64_t lanes = (*extent + index.step - 1) / index.step;
  return make<ir::RampNode>(index.begin, ir::MakeInt(index.step, index.begin->dtype), static_cast<int>(lanes));
}

tir::BufferRegion PrimExprParser::EvalRegion(const py::Expr& expr) {
  if (expr.Is<py::Name>()) {
    ir::Buffer buffer = EvalBuffer(expr);
    std::vector<tir::Range> full;
    for (const PrimExpr& dim : buffer->shape) full.push_back({ir::MakeInt(0, dim->dtype), dim});
    return make<tir::BufferRegionNode>(buffer, std::move(full));
  }
  const auto* sub = expr.As<py::Subscript>();
  if (sub == nullptr) Fail(expr.span, fmt::format("expected a buffer region such as A[i, 0:4], got {}", Describe(expr)));
  ir::Buffer buffer = EvalBuffer(*sub->value);
  std::vector<tir::Range> ranges;
  for (const Index& index : EvalIndices(buffer, *sub)) {
    if (index.step != 1) Fail(index.span, "a buffer region cannot have a step");
    if (index.end.defined()) {
      ranges.push_back({index.begin, SliceExtent(index)});
    } else {
      ranges.push_back({index.begin, ir::MakeInt(1, index.begin->dtype)});
    }
  }
  return make<tir::BufferRegionNode>(buffer, std::move(ranges));
}

PrimExpr PrimExprParser::EvalSubscript(const py::Subscript& sub) {
  // `A.shape[k]`
  if (const auto* attr = sub.value->As<py::Attribute>(); attr && attr->attr == "shape") {
    ir::Buffer buffer = EvalBuffer(*attr->value);
    std::optional<int64_t> k = AsIntLiteral(*sub.index);
    if (!k || *k < 0 || *k >= static_cast<int64_t>(buffer->shape.size())) {
      Fail(sub.index->span, fmt::format("expected a dimension index of buffer '{}' (0 to {})", buffer->name,
                                        static_cast<int64_t>(buffer->shape.size()) - 1));
    }
    return buffer->shape[*k];
  }
  ir::Buffer buffer = EvalBuffer(*sub.value);
  std::vector<PrimExpr> indices;
  for (const Index& index : EvalIndices(buffer, sub)) {
    if (!index.end.defined()) {
      indices.push_back(index.begin);
      continue;
    }
    indices.push_back(SliceRamp(index));
  }
  return WithSpanOf(make<ir::BufferLoadNode>(buffer, std::move(indices)), sub.span);
}

// ---------------------------------------------------------------------------
// Attribute values.

ObjectRef EvalAttrValue(const py::Expr& expr, AttrLevel level, PrimExprParser* prim) {
  bool relax = level == AttrLevel::kRelax;
  if (expr.Is<py::Dict>()) return EvalAttrDict(expr, level, prim);
  if (const std::vector<py::ExprPtr>* elts = AsSequence(expr)) {
    std::vector<ObjectRef> items;
    for (const py::ExprPtr& elt : *elts) items.push_back(EvalAttrValue(*elt, level, prim));
    return make<ir::ArrayNode>(std::move(items));
  }
  if (IsNone(&expr)) return ObjectRef();
  if (std::optional<bool> b = AsBoolLiteral(expr)) return ir::MakeBool(*b);
  if (std::optional<std::string> s = AsStringLiteral(expr)) return ir::MakeString(*s);
  if (std::optional<int64_t> i = AsIntLiteral(expr)) {
    bool fits32 = *i <= std::numeric_limits<int32_t>::max() && *i >= std::numeric_limits<int32_t>::min();
    return ir::MakeInt(*i, relax || !fits32 ? DataType::Int64() : DataType::Int32());
  }
  if (const py::Constant* c = AsConstant(expr, py::ConstantKind::kFloat)) {
    return ir::MakeFloat(c->float_value, relax ? DataType::Float(64) : DataType::Float32());
  }
  if (const auto* unary = expr.As<py::UnaryOp>(); unary && unary->op == py::UnaryOpKind::kUSub) {
    if (const py::Constant* c = AsConstant(*unary->operand, py::ConstantKind::kFloat)) {
      return ir::MakeFloat(-c->float_value, relax ? DataType::Float(64) : DataType::Float32());
    }
  }
  if (prim == nullptr) Fail(expr.span, fmt::format("unsupported attribute value {}", Describe(expr)));
  // A buffer as a value (`T.sblock_attr({"layout_free_placeholders": [C]})`).
  if (prim->NamesBuffer(expr)) return prim->EvalBuffer(expr);
  return prim->Eval(expr);
}

ir::Dict EvalAttrDict(const py::Expr& expr, AttrLevel level, PrimExprParser* prim) {
  const auto* dict = expr.As<py::Dict>();
  if (dict == nullptr) Fail(expr.span, fmt::format("expected a dict of attributes, got {}", Describe(expr)));
  std::vector<ir::DictNode::Item> items;
  for (size_t i = 0; i < dict->keys.size(); ++i) {
    if (dict->keys[i] == nullptr) Fail(dict->values[i]->span, "**entries are not supported in attributes");
    std::optional<std::string> key = AsStringLiteral(*dict->keys[i]);
    if (!key) Fail(dict->keys[i]->span, fmt::format("attribute keys must be strings, got {}", Describe(*dict->keys[i])));
    ObjectRef value = EvalAttrValue(*dict->values[i], level, prim);
    if (!value.defined()) continue;  // None: no entry
    bool replaced = false;
    for (auto& item : items) {
      if (item.first == *key) {
        item.second = value;
        replaced = true;
      }
    }
    if (!replaced) items.emplace_back(*key, value);
  }
  return make<ir::DictNode>(std::move(items));
}

}  // namespace rlx::text::detail
