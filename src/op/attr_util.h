// Typed access to operator attributes beyond op_common.h's: ints, floats,
// strings, optional values and the spatial-attribute normalizations that
// convolution and pooling share (private to src/op).
//
// The attribute convention is op_common.h's: an absent key means the
// AttrSpec default (or None for the optional kinds). A value of the wrong
// kind is a CompileError naming the operator and the attribute.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "op_common.h"

namespace rlx::op::detail {

ObjectRef FloatAttr(double value);
ObjectRef StringAttr(const std::string& value);

// The attribute `key`, or an undefined ref when absent.
ObjectRef FindAttr(const Call& call, const std::string& key);

int64_t GetIntAttr(const Call& call, const std::string& key, int64_t default_value);
std::optional<int64_t> GetOptionalIntAttr(const Call& call, const std::string& key);
double GetFloatAttr(const Call& call, const std::string& key, double default_value);
std::optional<double> GetOptionalFloatAttr(const Call& call, const std::string& key);
std::string GetStringAttr(const Call& call, const std::string& key, const std::string& default_value);
std::optional<std::string> GetOptionalStringAttr(const Call& call, const std::string& key);
// A required int list (an error when absent).
std::vector<int64_t> GetIntListAttr(const Call& call, const std::string& key);
// An int list with a default for when it is absent.
std::vector<int64_t> GetIntListAttr(const Call& call, const std::string& key, const std::vector<int64_t>& default_value);

// `values` (1 or `rank` long) repeated to `rank` values: strides=1 -> [1, 1].
std::vector<int64_t> ExpandToRank(const Call& call, const std::string& key, const std::vector<int64_t>& values,
                                  size_t rank);
// Padding of `spatial` dims as (begin..., end...): 1 value pads every side,
// `spatial` values pad both ends of each dim, 2 * `spatial` are complete.
std::vector<int64_t> CompletePadding(const Call& call, const std::vector<int64_t>& padding, size_t spatial);

// Positions of the letters of `canonical` ("NCHW") in `layout` ("NHWC"):
// result[i] is where canonical[i] sits. A layout that is not a permutation
// of `canonical` is an error naming the attribute.
std::vector<int> LayoutPositions(const Call& call, const std::string& key, const std::string& layout,
                                 const std::string& canonical);

// Checks that `dim` is not provably different from `expected`; the message
// names what is compared and both shapes.
void CheckDimMatch(const Call& call, arith::Analyzer& analyzer, const PrimExpr& dim, const PrimExpr& expected,
                   const std::string& what);

}  // namespace rlx::op::detail
