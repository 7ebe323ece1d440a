// Helpers shared by the data-movement operators (manipulate_*.cc, index.cc,
// gather_scatter.cc), private to src/op. They complement op_common.h with
// the attribute kinds those operators use (single ints, strings) and the
// argument shapes they read (Shape arguments, tuples of PrimValues).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attr_util.h"
#include "op_common.h"

namespace rlx::op::detail {

// Per-family registration, called once by RegisterAllOps().
void RegisterManipulateShapeOps();     // expand_dims, squeeze, flatten, broadcast_to
void RegisterManipulateJoinOps();      // concat, split
void RegisterManipulateReplicateOps();  // repeat, tile, flip
void RegisterIndexOps();               // take, strided_slice
void RegisterGatherScatterOps();       // gather_elements, scatter_elements
void RegisterLayoutTransformOp();       // layout_transform, with its legalization
// Their legalizations, and reshape's and permute_dims', are registered by
// RegisterManipulateLegalizations() (declared in op_common.h,
// legalize_manipulate.cc).

// The int attribute `key`: `default_value` when absent, an error when absent
// without a default (required) or not an integer.
int64_t GetIntAttr(const Call& call, const std::string& key, std::optional<int64_t> default_value = std::nullopt);
// GetOptionalIntAttr and GetStringAttr come from attr_util.h.
// Checks that `value` is one of `allowed`:
// "take: mode must be one of \"fast\", \"nan\", ...; got \"foo\"".
void CheckOneOf(const Call& call, const std::string& what, const std::string& value,
                const std::vector<std::string>& allowed);
// An attribute value for a list of PrimExprs (ints as int64 IntImm).
ObjectRef PrimExprListAttr(const std::vector<PrimExpr>& values);

// The dims of a Shape-valued argument (a ShapeExpr or a var of Shape struct
// info); nullopt when only its rank is known (then `ndim` is set, -1 when
// unknown). Not a Shape is an error naming the argument.
std::optional<Shape> ShapeArgValues(const Call& call, size_t index, int& ndim);

// The PrimExprs of a tuple-of-PrimValue argument (`(0, n)`), or nullopt when
// the argument is not such a tuple with known values. `ndim` gets the tuple
// length when it is known (else -1).
std::optional<Shape> PrimValueTupleArg(const Call& call, size_t index, int& length);

// Requires an integer (or unknown) dtype for argument `index`.
void CheckIndexDtype(const Call& call, size_t index, DataType dtype);

// A Tensor(dtype, ndim=k) when `shape` is nullopt, else Tensor(shape, dtype)
// with the shape simplified.
StructInfo TensorOrRank(arith::Analyzer& analyzer, const std::optional<Shape>& shape, DataType dtype, int ndim);

}  // namespace rlx::op::detail
