#include "rlx/graph/struct_info.h"

#include <sstream>

#include "rlx/graph/expr.h"

namespace rlx::graph {

TensorStructInfoNode::TensorStructInfoNode(Expr shape, DataType dtype)
    : StructInfoNode(kKind), shape(std::move(shape)), dtype(dtype), ndim(-1) {
  RLX_ICHECK(this->shape.defined()) << "use TensorStructInfoNode(dtype, ndim) for an unknown shape";
  if (const auto* sinfo = this->shape->struct_info.as<ShapeStructInfoNode>()) ndim = sinfo->ndim;
}

std::optional<std::vector<PrimExpr>> TensorStructInfoNode::GetShape() const {
  if (!shape.defined()) return std::nullopt;
  if (const auto* expr = shape.as<ShapeExprNode>()) return expr->values;
  if (const auto* sinfo = shape->struct_info.as<ShapeStructInfoNode>()) return sinfo->values;
  return std::nullopt;
}

FuncStructInfo FuncStructInfoNode::Opaque(StructInfo ret, bool purity) {
  auto node = make<FuncStructInfoNode>(std::vector<StructInfo>{}, std::move(ret), purity);
  const_cast<FuncStructInfoNode*>(node.get())->params = std::nullopt;
  return node;
}

StructInfo ObjectSInfo() { return make<ObjectStructInfoNode>(); }
StructInfo PrimSInfo(DataType dtype) { return make<PrimStructInfoNode>(dtype); }
StructInfo PrimValueSInfo(PrimExpr value) {
  DataType dtype = value->dtype;
  return make<PrimStructInfoNode>(dtype, std::move(value));
}
StructInfo ShapeSInfo(std::vector<PrimExpr> values) { return make<ShapeStructInfoNode>(std::move(values)); }
StructInfo ShapeSInfo(int ndim) { return make<ShapeStructInfoNode>(ndim); }
StructInfo TensorSInfo(std::vector<PrimExpr> shape, DataType dtype) {
  return make<TensorStructInfoNode>(make<ShapeExprNode>(std::move(shape)), dtype);
}
StructInfo TensorSInfo(DataType dtype, int ndim) { return make<TensorStructInfoNode>(dtype, ndim); }
StructInfo TupleSInfo(std::vector<StructInfo> fields) { return make<TupleStructInfoNode>(std::move(fields)); }

namespace {

void Render(const StructInfo& sinfo, std::ostringstream& os) {
  if (!sinfo.defined()) {
    os << "<none>";
  } else if (sinfo.isa<ObjectStructInfoNode>()) {
    os << "Object";
  } else if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
    os << "Prim(";
    if (prim->value.defined()) os << "value=" << ir::ToString(prim->value) << ", ";
    os << prim->dtype.ToString() << ')';
  } else if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
    if (shape->values) {
      std::string dims = ir::ShapeToString(*shape->values);
      os << "Shape([" << dims.substr(1, dims.size() - 2 - (shape->values->size() == 1 ? 1 : 0)) << "])";
    } else {
      os << "Shape(ndim=" << shape->ndim << ')';
    }
  } else if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
    os << "Tensor(";
    if (auto dims = tensor->GetShape()) {
      os << ir::ShapeToString(*dims);
    } else if (tensor->shape.defined() && tensor->shape.isa<VarNode>()) {
      os << tensor->shape.as<VarNode>()->name_hint << ", ndim=" << tensor->ndim;
    } else {
      os << "ndim=" << tensor->ndim;
    }
    if (!tensor->dtype.is_void()) os << ", " << tensor->dtype.ToString();
    os << ')';
  } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    os << "Tuple(";
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      if (i) os << ", ";
      Render(tuple->fields[i], os);
    }
    os << ')';
  } else if (const auto* func = sinfo.as<FuncStructInfoNode>()) {
    os << "Callable(";
    if (func->params) {
      os << '(';
      for (size_t i = 0; i < func->params->size(); ++i) {
        if (i) os << ", ";
        Render((*func->params)[i], os);
      }
      os << "), ";
    }
    Render(func->ret, os);
    os << ')';
  }
}

}  // namespace

std::string ToString(const StructInfo& sinfo) {
  std::ostringstream os;
  Render(sinfo, os);
  return os.str();
}

}  // namespace rlx::graph
