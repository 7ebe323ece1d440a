// Shared helpers of the operator library: errors, argument and attribute
// access, axis normalization and symbolic-shape broadcasting. The rules and
// the attribute convention are described in op_common.h.
#include "op_common.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "rlx/support/diagnostic.h"

namespace rlx::op::detail {

// ---------------------------------------------------------------------------
// Registration.

graph::OpInfo MakeOpInfo(const std::string& name, std::vector<std::string> args, graph::FInferStructInfo infer,
                         graph::OpPatternKind pattern, std::vector<graph::AttrSpec> attrs) {
  graph::OpInfo info;
  info.name = "relax." + name;
  info.script_name = "R." + name;
  info.args = std::move(args);
  info.attrs = std::move(attrs);
  info.infer = std::move(infer);
  info.pattern = pattern;
  info.pure = true;
  return info;
}

Call MakeOpCall(const std::string& name, std::vector<Expr> args, ir::Dict attrs) {
  return graph::MakeCall("relax." + name, std::move(args), std::move(attrs));
}

// ---------------------------------------------------------------------------
// Errors and arguments.

namespace {

constexpr std::string_view kRelaxPrefix = "relax.";

std::string FullOpName(const Call& call) {
  const auto* op = call->op.as<graph::OpNode>();
  RLX_ICHECK(op != nullptr) << "an operator rule was applied to a call of a non-operator";
  return op->name;
}

std::string DescribeAttrValue(const ObjectRef& value) {
  if (const auto* str = value.as<ir::StringImmNode>()) return fmt::format("\"{}\"", str->value);
  if (const auto* prim = value.as<ir::PrimExprNode>()) return ir::ToString(PrimExpr(prim));
  return NodeKindName(value->kind());
}

// The attribute `key` of the call, or an undefined ref when absent.
ObjectRef GetAttr(const Call& call, const std::string& key) {
  if (!call->attrs.defined()) return ObjectRef();
  return call->attrs->Get(key);
}

std::optional<int64_t> AsIntValue(const ObjectRef& value) {
  const auto* imm = value.as<ir::IntImmNode>();
  if (imm == nullptr || imm->dtype.is_bool()) return std::nullopt;
  return imm->value;
}

}  // namespace

std::string OpName(const Call& call) {
  std::string name = FullOpName(call);
  if (name.starts_with(kRelaxPrefix)) name.erase(0, kRelaxPrefix.size());
  return name;
}

void ThrowOpError(const Call& call, const std::string& message) {
  ThrowError(call->span, OpName(call) + ": " + message);
}

std::string ArgName(const Call& call, size_t index) {
  const graph::OpInfo* info = graph::FindOp(FullOpName(call));
  if (info != nullptr && index < info->args.size()) return info->args[index];
  return fmt::format("#{}", index);
}

void CheckNumArgs(const Call& call, size_t expected) {
  if (call->args.size() != expected) {
    ThrowOpError(call, fmt::format("expected {} argument{}, got {}", expected, expected == 1 ? "" : "s",
                                   call->args.size()));
  }
}

TensorStructInfo TensorArg(const Call& call, size_t index) {
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  TensorStructInfo tensor = dyn_cast<graph::TensorStructInfoNode>(sinfo);
  if (!tensor.defined()) {
    ThrowOpError(call, fmt::format("expected a Tensor for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
  return tensor;
}

// ---------------------------------------------------------------------------
// Attribute values.

ObjectRef IntAttr(int64_t value) { return ir::MakeInt(value); }
ObjectRef BoolAttr(bool value) { return ir::MakeBool(value); }
ObjectRef DataTypeAttr(DataType dtype) { return ir::MakeString(dtype.is_void() ? "void" : dtype.ToString()); }

ObjectRef IntListAttr(const std::vector<int64_t>& values) {
  std::vector<ObjectRef> elements;
  elements.reserve(values.size());
  for (int64_t value : values) elements.push_back(ir::MakeInt(value));
  return make<ir::ArrayNode>(std::move(elements));
}

bool GetBoolAttr(const Call& call, const std::string& key, bool default_value) {
  ObjectRef value = GetAttr(call, key);
  if (!value.defined()) return default_value;
  const auto* imm = value.as<ir::IntImmNode>();
  if (imm == nullptr || (imm->value != 0 && imm->value != 1)) {
    ThrowOpError(call, fmt::format("attribute '{}' expects a bool, got {}", key, DescribeAttrValue(value)));
  }
  return imm->value != 0;
}

std::optional<std::vector<int64_t>> GetOptionalIntListAttr(const Call& call, const std::string& key) {
  ObjectRef value = GetAttr(call, key);
  if (!value.defined()) return std::nullopt;
  if (std::optional<int64_t> single = AsIntValue(value)) return std::vector<int64_t>{*single};
  const auto* array = value.as<ir::ArrayNode>();
  if (array == nullptr) {
    ThrowOpError(call, fmt::format("attribute '{}' expects a list of integers, got {}", key,
                                   DescribeAttrValue(value)));
  }
  std::vector<int64_t> result;
  for (const ObjectRef& element : array->elements) {
    std::optional<int64_t> element_value = AsIntValue(element);
    if (!element_value) {
      ThrowOpError(call, fmt::format("attribute '{}' expects a list of integers, got an element {}", key,
                                     DescribeAttrValue(element)));
    }
    result.push_back(*element_value);
  }
  return result;
}

DataType GetDataTypeAttr(const Call& call, const std::string& key, std::optional<DataType> default_value) {
  ObjectRef value = GetAttr(call, key);
  if (!value.defined()) {
    if (!default_value) ThrowOpError(call, fmt::format("missing attribute '{}'", key));
    return *default_value;
  }
  const auto* str = value.as<ir::StringImmNode>();
  if (str == nullptr) {
    ThrowOpError(call, fmt::format("attribute '{}' expects a data type string, got {}", key,
                                   DescribeAttrValue(value)));
  }
  if (str->value == "void" || str->value.empty()) return DataType::Void();
  std::optional<DataType> dtype = DataType::Parse(str->value);
  if (!dtype) {
    ThrowOpError(call, fmt::format("attribute '{}' expects a data type, got \"{}\"", key, str->value));
  }
  return *dtype;
}

std::string IntListToString(const std::vector<int64_t>& values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

// ---------------------------------------------------------------------------
// Axes.

int NormalizeAxis(const Call& call, int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    ThrowOpError(call, fmt::format("axis {} is out of range for a tensor of rank {}", axis, ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> NormalizeAxes(const Call& call, const std::vector<int64_t>& axes, int ndim) {
  std::vector<int> result;
  std::vector<bool> seen(static_cast<size_t>(ndim), false);
  for (int64_t axis : axes) {
    int normalized = NormalizeAxis(call, axis, ndim);
    if (seen[normalized]) {
      ThrowOpError(call, fmt::format("axis {} appears more than once in {}", normalized, IntListToString(axes)));
    }
    seen[normalized] = true;
    result.push_back(normalized);
  }
  return result;
}

// ---------------------------------------------------------------------------
// Data types.

DataType UnifyDtypes(const Call& call, DataType a, DataType b) {
  if (a.is_void() || b.is_void()) return DataType::Void();
  if (a != b) {
    ThrowOpError(call, fmt::format("operands have different dtypes {} and {}", a.ToString(), b.ToString()));
  }
  return a;
}

// ---------------------------------------------------------------------------
// Symbolic shapes.

PrimExpr AsInt64(const PrimExpr& expr) {
  if (expr->dtype == DataType::Int64()) return expr;
  if (std::optional<int64_t> value = ir::AsConstInt(expr)) return ir::MakeInt(*value);
  return ir::cast(DataType::Int64(), expr);
}

PrimExpr ShapeProduct(const Shape& shape) {
  if (shape.empty()) return ir::MakeInt(1);
  PrimExpr product = AsInt64(shape[0]);
  for (size_t i = 1; i < shape.size(); ++i) product = product * AsInt64(shape[i]);
  return product;
}

bool ProvablyDifferent(arith::Analyzer& analyzer, const PrimExpr& a, const PrimExpr& b) {
  std::optional<int64_t> const_a = ir::AsConstInt(a);
  std::optional<int64_t> const_b = ir::AsConstInt(b);
  if (const_a && const_b) return *const_a != *const_b;
  return analyzer.CanProve(ir::ne(AsInt64(a), AsInt64(b)));
}

bool ProvablyEqual(arith::Analyzer& analyzer, const PrimExpr& a, const PrimExpr& b) {
  if (a.same_as(b)) return true;
  std::optional<int64_t> const_a = ir::AsConstInt(a);
  std::optional<int64_t> const_b = ir::AsConstInt(b);
  if (const_a && const_b) return *const_a == *const_b;
  return analyzer.CanProveEqual(AsInt64(a), AsInt64(b));
}

Shape SimplifyShape(arith::Analyzer& analyzer, const Shape& shape) {
  Shape result;
  result.reserve(shape.size());
  for (const PrimExpr& dim : shape) result.push_back(analyzer.Simplify(AsInt64(dim)));
  return result;
}

namespace {

// Broadcasts one pair of dimensions; nullopt when undecidable. Sets
// `mismatch` when the pair provably cannot broadcast.
std::optional<PrimExpr> BroadcastDim(arith::Analyzer& analyzer, const PrimExpr& a, const PrimExpr& b,
                                     bool& mismatch) {
  if (ir::IsConstInt(a, 1)) return b;
  if (ir::IsConstInt(b, 1)) return a;
  if (ProvablyEqual(analyzer, a, b)) return a;
  PrimExpr one = ir::MakeInt(1);
  if (ProvablyDifferent(analyzer, a, b) && ProvablyDifferent(analyzer, a, one) &&
      ProvablyDifferent(analyzer, b, one)) {
    mismatch = true;
  }
  return std::nullopt;
}

}  // namespace

BroadcastResult BroadcastShapes(arith::Analyzer& analyzer, const Shape& a, const Shape& b) {
  const Shape& longer = a.size() >= b.size() ? a : b;
  const Shape& shorter = a.size() >= b.size() ? b : a;
  size_t offset = longer.size() - shorter.size();
  BroadcastResult result;
  result.shape.assign(longer.begin(), longer.begin() + static_cast<std::ptrdiff_t>(offset));
  for (size_t i = 0; i < shorter.size(); ++i) {
    bool mismatch = false;
    // Keep the operands' order so a result dim prefers the first operand.
    const PrimExpr& dim_a = a.size() >= b.size() ? longer[offset + i] : shorter[i];
    const PrimExpr& dim_b = a.size() >= b.size() ? shorter[i] : longer[offset + i];
    std::optional<PrimExpr> dim = BroadcastDim(analyzer, dim_a, dim_b, mismatch);
    if (mismatch) return {BroadcastResult::Status::kMismatch, {}};
    if (!dim) {
      result.status = BroadcastResult::Status::kUndecidable;
      continue;  // a later pair may still prove a mismatch
    }
    result.shape.push_back(*dim);
  }
  if (result.status != BroadcastResult::Status::kOk) return {result.status, {}};
  result.shape = SimplifyShape(analyzer, result.shape);
  return result;
}

StructInfo TensorLike(const TensorStructInfo& tensor, DataType dtype) {
  if (tensor->dtype == dtype) return tensor;
  if (tensor->shape.defined()) return make<graph::TensorStructInfoNode>(tensor->shape, dtype);
  return graph::TensorSInfo(dtype, tensor->ndim);
}

}  // namespace rlx::op::detail
