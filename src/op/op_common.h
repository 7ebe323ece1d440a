// Shared helpers of the operator library (private to src/op).
//
// Every operator family (binary.cc, unary.cc, ...) registers its OpInfos and
// writes its struct-info rule with these helpers, so that all operators
// report errors, read attributes and reason about symbolic shapes the same
// way.
//
// Attribute convention (the contract with the printer and the parser): an
// operator's keyword attributes live in the Call's Dict, keyed by the names
// of OpInfo::attrs, with values
//   int            ir::IntImm of dtype int64
//   bool           ir::IntImm of dtype bool
//   int list       ir::Array of int64 IntImm (a single IntImm is accepted
//                  where a list is expected: `axis=1` means `axis=[1]`)
//   string, dtype  ir::StringImm; the dtype "void" means "unknown / inputs'"
//   None           the key is ABSENT from the Dict (a call whose attributes
//                  are all None may have an undefined Dict)
// An attribute missing from the Dict takes the AttrSpec's default value. For
// the optional kinds (kOptionalInt, kOptionalIntList) an undefined
// default_value means "defaults to None"; for every other kind it means the
// attribute is required.
//
// Shape reasoning follows the primer's forward deduction: a mismatch the
// analyzer (or plain constant folding) proves is a CompileError at the call's
// span; an undecidable one is accepted and the result keeps only what is
// certain (rank, dtype).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"
#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info.h"

namespace rlx::op::detail {

using graph::BlockBuilder;
using graph::Call;
using graph::Expr;
using graph::StructInfo;
using graph::TensorStructInfo;
using ir::PrimExpr;
using Shape = std::vector<PrimExpr>;

// ---------------------------------------------------------------------------
// Registration.

// Per-family registration, called once by RegisterAllOps().
void RegisterBinaryOps();
void RegisterUnaryOps();
void RegisterLinearAlgebraOps();
void RegisterManipulateOps();
void RegisterStatisticalOps();
void RegisterDatatypeOps();
// nn, image, search/scan and einsum operators (nn.cc, convolution.cc,
// pooling.cc, image.cc, search_scan.cc, einsum.cc).
void RegisterNNOps();
void RegisterConvolutionOps();
void RegisterPoolingOps();
void RegisterImageOps();
void RegisterSearchScanOps();
void RegisterEinsumOps();
void RegisterCreateOps();  // creation ops and `where` (create.cc)
void RegisterSortingOps();  // sort, argsort, topk (sorting.cc)

// Per-family legalizations (src/op/legalize_*.cc, create.cc), attached after
// every operator is registered.
void RegisterBinaryLegalizations();
// Legalizations of the nn, statistical, image and einsum operators
// (legalize_nn.cc).
void RegisterNNLegalizations();
void RegisterUnaryLegalizations();
void RegisterReduceLegalizations();  // reductions, matmul, astype
void RegisterCreateLegalizations();
void RegisterManipulateLegalizations();  // reshape, permute_dims
void RegisterMemoryOps();

// An OpInfo named "relax.<name>" / "R.<name>" (name may be "nn.relu").
graph::OpInfo MakeOpInfo(const std::string& name, std::vector<std::string> args, graph::FInferStructInfo infer,
                         graph::OpPatternKind pattern, std::vector<graph::AttrSpec> attrs = {});

// An un-normalized call of "relax.<name>".
Call MakeOpCall(const std::string& name, std::vector<Expr> args, ir::Dict attrs = nullptr);

// ---------------------------------------------------------------------------
// Errors and arguments.

// The operator's name without the "relax." prefix ("add", "nn.relu").
std::string OpName(const Call& call);

// Throws CompileError at call->span with "<op>: <message>".
[[noreturn]] void ThrowOpError(const Call& call, const std::string& message);

// The registered name of positional argument `index` ("x2"), or "#index".
std::string ArgName(const Call& call, size_t index);

// Checks that the call has exactly `expected` arguments.
void CheckNumArgs(const Call& call, size_t expected);

// The struct info of argument `index`, which must be a Tensor:
// "add: expected a Tensor for argument 'x2', got Shape([n])".
TensorStructInfo TensorArg(const Call& call, size_t index);

// ---------------------------------------------------------------------------
// Attribute values (see the convention above).

ObjectRef IntAttr(int64_t value);
ObjectRef BoolAttr(bool value);
ObjectRef IntListAttr(const std::vector<int64_t>& values);
ObjectRef DataTypeAttr(DataType dtype);

// The bool attribute `key`, or `default_value` when absent.
bool GetBoolAttr(const Call& call, const std::string& key, bool default_value);
// The int list attribute `key`; nullopt when absent (None).
std::optional<std::vector<int64_t>> GetOptionalIntListAttr(const Call& call, const std::string& key);
// The dtype attribute `key`; `default_value` when absent, or an error when
// there is no default (the attribute is required).
DataType GetDataTypeAttr(const Call& call, const std::string& key, std::optional<DataType> default_value);

// "[1, -1]"
std::string IntListToString(const std::vector<int64_t>& values);

// ---------------------------------------------------------------------------
// Axes.

// `axis` in [-ndim, ndim) mapped to [0, ndim):
// "sum: axis 3 is out of range for a tensor of rank 2".
int NormalizeAxis(const Call& call, int64_t axis, int ndim);
// Every axis normalized; an axis named twice is an error.
std::vector<int> NormalizeAxes(const Call& call, const std::vector<int64_t>& axes, int ndim);

// ---------------------------------------------------------------------------
// Data types.

// The common dtype of two operands: void if either is unknown, an error when
// both are known and differ ("add: operands have different dtypes float32
// and float16").
DataType UnifyDtypes(const Call& call, DataType a, DataType b);

// ---------------------------------------------------------------------------
// Symbolic shapes.

// `expr` as int64 (shape arithmetic is int64; other integer dims are cast).
PrimExpr AsInt64(const PrimExpr& expr);
// The product of the dimensions (1 for a scalar), not simplified.
PrimExpr ShapeProduct(const Shape& shape);
// Is a != b for every value of the symbolic variables?
bool ProvablyDifferent(arith::Analyzer& analyzer, const PrimExpr& a, const PrimExpr& b);
// Is a == b for every value of the symbolic variables?
bool ProvablyEqual(arith::Analyzer& analyzer, const PrimExpr& a, const PrimExpr& b);
Shape SimplifyShape(arith::Analyzer& analyzer, const Shape& shape);

// numpy broadcasting of two symbolic shapes, aligned at the right.
struct BroadcastResult {
  enum class Status { kOk, kUndecidable, kMismatch };
  Status status = Status::kOk;
  Shape shape;  // the (simplified) result when kOk
};
BroadcastResult BroadcastShapes(arith::Analyzer& analyzer, const Shape& a, const Shape& b);

// A tensor with `tensor`'s shape (or rank) and the given dtype.
StructInfo TensorLike(const TensorStructInfo& tensor, DataType dtype);

}  // namespace rlx::op::detail
