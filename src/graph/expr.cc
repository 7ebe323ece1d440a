#include "rlx/graph/expr.h"

#include <mutex>
#include <unordered_map>

namespace rlx::graph {

void UpdateStructInfo(const Expr& expr, StructInfo sinfo) {
  RLX_ICHECK(sinfo.defined()) << "setting undefined struct info";
  if (!expr->struct_info.defined()) {
    expr->struct_info = std::move(sinfo);
    return;
  }
  RLX_ICHECK(expr->struct_info.same_as(sinfo) || expr->kind() == NodeKind::kGraphVar ||
             expr->kind() == NodeKind::kGraphDataflowVar)
      << "struct info of a " << NodeKindName(expr->kind()) << " set twice";
}

StructInfo GetStructInfo(const Expr& expr) {
  RLX_ICHECK(expr->struct_info.defined()) << "a " << NodeKindName(expr->kind()) << " has no struct info";
  return expr->struct_info;
}

VarNode::VarNode(std::string name_hint, StructInfo sinfo, bool is_dataflow)
    : ExprNode(is_dataflow ? NodeKind::kGraphDataflowVar : NodeKind::kGraphVar), name_hint(std::move(name_hint)) {
  struct_info = std::move(sinfo);
}

int64_t TensorData::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

ConstantNode::ConstantNode(TensorDataPtr data) : ExprNode(kKind), data(std::move(data)) {
  std::vector<PrimExpr> shape;
  for (int64_t d : this->data->shape) shape.push_back(ir::MakeInt(d));
  struct_info = TensorSInfo(std::move(shape), this->data->dtype);
}

ShapeExprNode::ShapeExprNode(std::vector<PrimExpr> values) : ExprNode(kKind), values(std::move(values)) {
  struct_info = ShapeSInfo(this->values);
}

PrimValueNode::PrimValueNode(PrimExpr value) : ExprNode(kKind), value(std::move(value)) {
  struct_info = PrimValueSInfo(this->value);
}

StringImmNode::StringImmNode(std::string value) : ExprNode(kKind), value(std::move(value)) {
  struct_info = ObjectSInfo();
}

DataTypeImmNode::DataTypeImmNode(DataType value) : ExprNode(kKind), value(value) { struct_info = ObjectSInfo(); }

ExternFuncNode::ExternFuncNode(std::string global_symbol) : ExprNode(kKind), global_symbol(std::move(global_symbol)) {
  struct_info = FuncStructInfoNode::Opaque(ObjectSInfo(), false);
}

FunctionNode::FunctionNode(std::vector<Var> params, Expr body, StructInfo ret_struct_info, bool is_pure, Dict attrs,
                           bool is_private)
    : ExprNode(kKind),
      params(std::move(params)),
      body(std::move(body)),
      ret_struct_info(std::move(ret_struct_info)),
      is_pure(is_pure),
      attrs(std::move(attrs)),
      is_private(is_private) {
  std::vector<StructInfo> param_sinfo;
  for (const Var& param : this->params) param_sinfo.push_back(param->struct_info);
  struct_info = make<FuncStructInfoNode>(std::move(param_sinfo), this->ret_struct_info, is_pure);
}

Op GetOp(const std::string& name) {
  static std::mutex mutex;
  static std::unordered_map<std::string, Op> ops;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = ops.find(name);
  if (it != ops.end()) return it->second;
  Op op = make<OpNode>(name);
  ops.emplace(name, op);
  return op;
}

Var MakeVar(std::string name, StructInfo sinfo) { return make<VarNode>(std::move(name), std::move(sinfo)); }
Var MakeDataflowVar(std::string name, StructInfo sinfo) {
  return make<DataflowVarNode>(std::move(name), std::move(sinfo));
}
Call MakeCall(const std::string& op_name, std::vector<Expr> args, Dict attrs, std::vector<StructInfo> sinfo_args) {
  return make<CallNode>(GetOp(op_name), std::move(args), std::move(attrs), std::move(sinfo_args));
}

}  // namespace rlx::graph
