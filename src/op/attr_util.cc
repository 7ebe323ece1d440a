// Typed attribute access and spatial-attribute normalization (see
// attr_util.h).
#include "attr_util.h"

#include <fmt/format.h>

#include <algorithm>

#include "rlx/ir/attrs.h"

namespace rlx::op::detail {
namespace {

[[noreturn]] void ThrowAttrType(const Call& call, const std::string& key, const char* expected) {
  ThrowOpError(call, fmt::format("attribute '{}' expects {}", key, expected));
}

std::optional<int64_t> IntValueOf(const ObjectRef& value) {
  const auto* imm = value.as<ir::IntImmNode>();
  if (imm == nullptr || imm->dtype.is_bool()) return std::nullopt;
  return imm->value;
}

}  // namespace

ObjectRef FloatAttr(double value) { return ir::MakeFloat(value, DataType::Float(64)); }
ObjectRef StringAttr(const std::string& value) { return ir::MakeString(value); }

ObjectRef FindAttr(const Call& call, const std::string& key) {
  if (!call->attrs.defined()) return ObjectRef();
  return call->attrs->Get(key);
}

std::optional<int64_t> GetOptionalIntAttr(const Call& call, const std::string& key) {
  ObjectRef value = FindAttr(call, key);
  if (!value.defined()) return std::nullopt;
  std::optional<int64_t> result = IntValueOf(value);
  if (!result) ThrowAttrType(call, key, "an integer");
  return result;
}

int64_t GetIntAttr(const Call& call, const std::string& key, int64_t default_value) {
  return GetOptionalIntAttr(call, key).value_or(default_value);
}

std::optional<double> GetOptionalFloatAttr(const Call& call, const std::string& key) {
  ObjectRef value = FindAttr(call, key);
  if (!value.defined()) return std::nullopt;
  if (const auto* imm = value.as<ir::FloatImmNode>()) return imm->value;
  if (std::optional<int64_t> i = IntValueOf(value)) return static_cast<double>(*i);
  ThrowAttrType(call, key, "a number");
}

double GetFloatAttr(const Call& call, const std::string& key, double default_value) {
  return GetOptionalFloatAttr(call, key).value_or(default_value);
}

std::optional<std::string> GetOptionalStringAttr(const Call& call, const std::string& key) {
  ObjectRef value = FindAttr(call, key);
  if (!value.defined()) return std::nullopt;
  const auto* str = value.as<ir::StringImmNode>();
  if (str == nullptr) ThrowAttrType(call, key, "a string");
  return str->value;
}

std::string GetStringAttr(const Call& call, const std::string& key, const std::string& default_value) {
  return GetOptionalStringAttr(call, key).value_or(default_value);
}

std::vector<int64_t> GetIntListAttr(const Call& call, const std::string& key) {
  std::optional<std::vector<int64_t>> values = GetOptionalIntListAttr(call, key);
  if (!values) ThrowOpError(call, fmt::format("missing attribute '{}'", key));
  return *values;
}

std::vector<int64_t> GetIntListAttr(const Call& call, const std::string& key,
                                    const std::vector<int64_t>& default_value) {
  return GetOptionalIntListAttr(call, key).value_or(default_value);
}

std::vector<int64_t> ExpandToRank(const Call& call, const std::string& key, const std::vector<int64_t>& values,
                                  size_t rank) {
  if (values.size() == rank) return values;
  if (values.size() == 1) return std::vector<int64_t>(rank, values[0]);
  ThrowOpError(call, fmt::format("attribute '{}' expects 1 or {} values, got {}", key, rank,
                                 IntListToString(values)));
}

std::vector<int64_t> CompletePadding(const Call& call, const std::vector<int64_t>& padding, size_t spatial) {
  if (padding.size() == 2 * spatial) return padding;
  std::vector<int64_t> result;
  if (padding.size() == 1) return std::vector<int64_t>(2 * spatial, padding[0]);
  if (padding.size() == spatial) {
    result = padding;
    result.insert(result.end(), padding.begin(), padding.end());
    return result;
  }
  ThrowOpError(call, fmt::format("attribute 'padding' expects 1, {} or {} values, got {}", spatial, 2 * spatial,
                                 IntListToString(padding)));
}

std::vector<int> LayoutPositions(const Call& call, const std::string& key, const std::string& layout,
                                 const std::string& canonical) {
  std::string sorted_layout = layout;
  std::string sorted_canonical = canonical;
  std::sort(sorted_layout.begin(), sorted_layout.end());
  std::sort(sorted_canonical.begin(), sorted_canonical.end());
  if (sorted_layout != sorted_canonical) {
    ThrowOpError(call, fmt::format("unsupported {} \"{}\": expected a permutation of \"{}\"", key, layout, canonical));
  }
  std::vector<int> positions;
  for (char letter : canonical) positions.push_back(static_cast<int>(layout.find(letter)));
  return positions;
}

void CheckDimMatch(const Call& call, arith::Analyzer& analyzer, const PrimExpr& dim, const PrimExpr& expected,
                   const std::string& what) {
  if (ProvablyDifferent(analyzer, dim, expected)) {
    ThrowOpError(call, fmt::format("{}: {} vs {}", what, ir::ToString(dim), ir::ToString(expected)));
  }
}

}  // namespace rlx::op::detail
