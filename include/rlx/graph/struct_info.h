// Struct info: what the graph level knows about every value.
//
//   Object                      any value
//   Prim(dtype[, value])        a scalar, optionally with a known symbolic value
//   Shape(values) | Shape(ndim) a shape tuple: symbolic dims, or only a rank
//   Tensor(shape, dtype)        shape is a ShapeExpr, a Var holding a shape, or
//                               unknown (then only ndim, -1 = unknown rank);
//                               dtype may be void (unknown)
//   Tuple[fields]
//   Callable(params, ret, purity)  params may be unknown (opaque callable)
//
// The lattice, least upper bounds, erasure and deduction helpers live in
// graph/struct_info_analysis.h.
#pragma once

#include <optional>
#include <vector>

#include "rlx/ir/expr.h"

namespace rlx::graph {

using ir::PrimExpr;

class StructInfoNode : public Node {
 public:
  static bool classof(NodeKind kind) {
    return kind >= NodeKind::kObjectStructInfo && kind <= NodeKind::kFuncStructInfo;
  }
  explicit StructInfoNode(NodeKind kind) : Node(kind) {}
  Span span;
};
using StructInfo = Ref<StructInfoNode>;

class ExprNode;
using Expr = Ref<ExprNode>;

class ObjectStructInfoNode : public StructInfoNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kObjectStructInfo;
  ObjectStructInfoNode() : StructInfoNode(kKind) {}
};

class PrimStructInfoNode : public StructInfoNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimStructInfo;
  PrimStructInfoNode(DataType dtype, PrimExpr value = nullptr)
      : StructInfoNode(kKind), dtype(dtype), value(std::move(value)) {}
  DataType dtype;
  PrimExpr value;  // may be undefined
};

class ShapeStructInfoNode : public StructInfoNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kShapeStructInfo;
  // Known dimensions.
  explicit ShapeStructInfoNode(std::vector<PrimExpr> values)
      : StructInfoNode(kKind), values(std::move(values)), ndim(static_cast<int>(this->values->size())) {}
  // Only a rank (-1: unknown).
  explicit ShapeStructInfoNode(int ndim) : StructInfoNode(kKind), ndim(ndim) {}
  std::optional<std::vector<PrimExpr>> values;
  int ndim;
};

class TensorStructInfoNode : public StructInfoNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kTensorStructInfo;
  // With a shape (a ShapeExpr or a Var whose struct info is a Shape).
  TensorStructInfoNode(Expr shape, DataType dtype);
  // Without a shape: only rank (-1 unknown) and dtype.
  TensorStructInfoNode(DataType dtype, int ndim) : StructInfoNode(kKind), dtype(dtype), ndim(ndim) {}

  // The dimensions when the shape is a ShapeExpr (or a shape var with known
  // values); nullopt otherwise.
  std::optional<std::vector<PrimExpr>> GetShape() const;
  bool IsUnknownNdim() const { return ndim == -1; }
  bool IsUnknownDtype() const { return dtype.is_void(); }

  Expr shape;  // may be undefined
  DataType dtype;
  int ndim;
};

class TupleStructInfoNode : public StructInfoNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kTupleStructInfo;
  explicit TupleStructInfoNode(std::vector<StructInfo> fields) : StructInfoNode(kKind), fields(std::move(fields)) {}
  std::vector<StructInfo> fields;
};

class FuncStructInfoNode : public StructInfoNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kFuncStructInfo;
  FuncStructInfoNode(std::vector<StructInfo> params, StructInfo ret, bool purity = true)
      : StructInfoNode(kKind), params(std::move(params)), ret(std::move(ret)), purity(purity) {}
  // An opaque callable: parameters unknown.
  static Ref<FuncStructInfoNode> Opaque(StructInfo ret, bool purity = true);

  std::optional<std::vector<StructInfo>> params;
  StructInfo ret;
  bool purity;
};

using ObjectStructInfo = Ref<ObjectStructInfoNode>;
using PrimStructInfo = Ref<PrimStructInfoNode>;
using ShapeStructInfo = Ref<ShapeStructInfoNode>;
using TensorStructInfo = Ref<TensorStructInfoNode>;
using TupleStructInfo = Ref<TupleStructInfoNode>;
using FuncStructInfo = Ref<FuncStructInfoNode>;

// Short constructors.
StructInfo ObjectSInfo();
StructInfo PrimSInfo(DataType dtype);
StructInfo PrimValueSInfo(PrimExpr value);
StructInfo ShapeSInfo(std::vector<PrimExpr> values);
StructInfo ShapeSInfo(int ndim);
// Tensor with known dims (a fresh ShapeExpr is built).
StructInfo TensorSInfo(std::vector<PrimExpr> shape, DataType dtype);
StructInfo TensorSInfo(DataType dtype, int ndim);
StructInfo TupleSInfo(std::vector<StructInfo> fields);

// A compact rendering for messages: `Tensor((n, 4), float32)`,
// `Tensor(ndim=2, float32)`, `Shape([n, 4])`, `Tuple(...)`.
std::string ToString(const StructInfo& sinfo);

}  // namespace rlx::graph
