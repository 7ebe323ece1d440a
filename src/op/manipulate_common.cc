// Helpers of the data-movement operators (see manipulate_common.h).
#include "manipulate_common.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlx::op::detail {

int64_t GetIntAttr(const Call& call, const std::string& key, std::optional<int64_t> default_value) {
  std::optional<int64_t> value = GetOptionalIntAttr(call, key);
  if (value) return *value;
  if (!default_value) ThrowOpError(call, fmt::format("missing attribute '{}'", key));
  return *default_value;
}

void CheckOneOf(const Call& call, const std::string& what, const std::string& value,
                const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  std::vector<std::string> quoted;
  for (const std::string& name : allowed) quoted.push_back("\"" + name + "\"");
  ThrowOpError(call, fmt::format("{} must be one of {}; got \"{}\"", what, fmt::join(quoted, ", "), value));
}

ObjectRef PrimExprListAttr(const std::vector<PrimExpr>& values) {
  std::vector<ObjectRef> elements;
  for (const PrimExpr& value : values) elements.push_back(AsInt64(value));
  return make<ir::ArrayNode>(std::move(elements));
}

std::optional<Shape> ShapeArgValues(const Call& call, size_t index, int& ndim) {
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  const auto* shape_sinfo = sinfo.as<graph::ShapeStructInfoNode>();
  if (shape_sinfo == nullptr) {
    ThrowOpError(call, fmt::format("expected a Shape for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
  ndim = shape_sinfo->ndim;
  if (const auto* shape_expr = call->args[index].as<graph::ShapeExprNode>()) return shape_expr->values;
  return shape_sinfo->values;
}

std::optional<Shape> PrimValueTupleArg(const Call& call, size_t index, int& length) {
  length = -1;
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  if (tuple == nullptr) {
    ThrowOpError(call, fmt::format("expected a tuple of integers for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
  length = static_cast<int>(tuple->fields.size());
  Shape values;
  for (const StructInfo& field : tuple->fields) {
    const auto* prim = field.as<graph::PrimStructInfoNode>();
    if (prim == nullptr || (!prim->dtype.is_void() && !prim->dtype.is_int())) {
      ThrowOpError(call, fmt::format("expected a tuple of integers for argument '{}', got {}", ArgName(call, index),
                                     graph::ToString(sinfo)));
    }
    if (!prim->value.defined()) return std::nullopt;
    values.push_back(AsInt64(prim->value));
  }
  return values;
}

void CheckIndexDtype(const Call& call, size_t index, DataType dtype) {
  if (dtype.is_void() || dtype.is_int() || dtype.is_uint()) return;
  ThrowOpError(call, fmt::format("argument '{}' must have an integer dtype, got {}", ArgName(call, index),
                                 dtype.ToString()));
}

StructInfo TensorOrRank(arith::Analyzer& analyzer, const std::optional<Shape>& shape, DataType dtype, int ndim) {
  if (!shape) return graph::TensorSInfo(dtype, ndim);
  return graph::TensorSInfo(SimplifyShape(analyzer, *shape), dtype);
}

}  // namespace rlx::op::detail
