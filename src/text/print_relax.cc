// TVMScript printer: struct info, graph-level expressions and functions.
//
// Follows TVM's Relax printer (src/script/printer/relax/*.cc):
// - Struct info: `R.Tensor((n, 4), dtype="float32")`, `R.Tensor(dtype=
//   "float32", ndim=2)`, `R.Tensor`, `R.Shape([n, 4])`, `R.Shape(ndim=2)`,
//   `R.Prim("int64")`, `R.Prim(value=n)`, `R.Object`, `R.Tuple(...)` (empty:
//   `R.Tuple`), `R.Callable((params), ret, True)` (opaque: `R.Callable` or
//   `R.Callable(ret=..., purity=True)`).
// - Signatures: the return annotation prints first, then the parameters;
//   a symbolic variable first met there is a "function variable", and any
//   shape expression using one prints as a string (`"n"`, `"n * 2"`), as
//   TVMScript defines variables from string dimensions in signatures. Every
//   symbolic variable is then declared `n = T.int64()` at the top of the
//   function body, in order of first appearance; nested functions declare
//   theirs in the outermost function.
// - Bindings are annotated with the variable's struct info, except calls
//   to call_tir / call_dps_packed whose out_sinfo already says it; a
//   binding of void struct info (`R.Tuple`) to a void value prints as a bare
//   expression statement (`R.print(...)`). `cls = Module` appears once the
//   function refers to a module function (`cls.f`).
// - If: a Python if/else whose branches end by assigning the bound
//   variable. Dataflow blocks: `with R.dataflow():` ... `R.output(a, b)`.
// - Calls: operators by their registered script name with positional
//   arguments then every declared attribute as a keyword (a missing one as
//   its default, None when it has none); call_tir / call_dps_packed /
//   call_tir_inplace in their own form (`out_sinfo=`, a list for several
//   outputs, `tir_vars=R.shape([...])`);
//   a call of an ExternFunc is `R.call_packed("name", ...)`; explicit
//   `sinfo_args=(...)` last.
// - Constants: `R.const(1.5, "float32")`; tensors as nested lists,
//   `R.const([[1, 2], [3, 4]], "int32")` (TVM would use its metadata
//   section, which cannot be parsed back without TVM).
#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "rlx/graph/expr_functor.h"
#include "rlx/ir/functor.h"
#include "text/printer_internal.h"

namespace rlx::text::detail {

using graph::StructInfo;

namespace {

std::string Join(const std::vector<std::string>& items) { return fmt::format("{}", fmt::join(items, ", ")); }

std::string TupleText(const std::vector<std::string>& items) {
  return "(" + Join(items) + (items.size() == 1 ? ",)" : ")");
}

bool IsVoid(const StructInfo& sinfo) {
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  return tuple && tuple->fields.empty();
}

bool ShapeEqual(const graph::Expr& a, const graph::Expr& b) {
  if (a.same_as(b)) return true;
  const auto* x = a.as<graph::ShapeExprNode>();
  const auto* y = b.as<graph::ShapeExprNode>();
  if (!x || !y || x->values.size() != y->values.size()) return false;
  for (size_t i = 0; i < x->values.size(); ++i) {
    if (!ExprDeepEqual(x->values[i], y->values[i])) return false;
  }
  return true;
}

bool SInfoListEqual(const std::vector<StructInfo>& a, const std::vector<StructInfo>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!StructInfoEqual(a[i], b[i])) return false;
  }
  return true;
}

// float16 / bfloat16 bit patterns to float.
float HalfToFloat(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
  double value;
  if (exponent == 0x1f) {
    value = fraction ? std::nan("") : INFINITY;
  } else if (exponent == 0) {
    value = std::ldexp(static_cast<double>(fraction), -24);
  } else {
    value = std::ldexp(static_cast<double>(fraction | 0x400), exponent - 25);
  }
  return static_cast<float>(sign ? -value : value);
}

float BFloat16ToFloat(uint16_t bits) {
  uint32_t widened = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &widened, sizeof(value));
  return value;
}

// The shortest text that reads back to the same float.
std::string Float32Literal(float value) {
  if (std::isnan(value) || std::isinf(value) || std::nearbyint(value) == value) return FloatLiteral(value);
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

template <typename T>
T Load(const uint8_t* bytes, int64_t index) {
  T value;
  std::memcpy(&value, bytes + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

// One element of a constant's payload as a Python literal.
std::string ElementText(const graph::TensorData& data, int64_t index) {
  const uint8_t* bytes = data.bytes.data();
  DataType dtype = data.dtype;
  if (dtype.is_bool()) return Load<uint8_t>(bytes, index) ? "True" : "False";
  if (dtype.is_int()) {
    switch (dtype.bits()) {
      case 8: return std::to_string(Load<int8_t>(bytes, index));
      case 16: return std::to_string(Load<int16_t>(bytes, index));
      case 32: return std::to_string(Load<int32_t>(bytes, index));
      default: return std::to_string(Load<int64_t>(bytes, index));
    }
  }
  if (dtype.is_uint()) {
    switch (dtype.bits()) {
      case 8: return std::to_string(Load<uint8_t>(bytes, index));
      case 16: return std::to_string(Load<uint16_t>(bytes, index));
      case 32: return std::to_string(Load<uint32_t>(bytes, index));
      default: return std::to_string(Load<uint64_t>(bytes, index));
    }
  }
  if (dtype.is_bfloat16()) return Float32Literal(BFloat16ToFloat(Load<uint16_t>(bytes, index)));
  switch (dtype.bits()) {
    case 16: return Float32Literal(HalfToFloat(Load<uint16_t>(bytes, index)));
    case 32: return Float32Literal(Load<float>(bytes, index));
    default: return FloatLiteral(Load<double>(bytes, index));
  }
}

// Row-major nested lists over dimensions [dim, ndim).
std::string NestedList(const graph::TensorData& data, size_t dim, int64_t offset) {
  if (dim == data.shape.size()) return ElementText(data, offset);
  int64_t stride = 1;
  for (size_t d = dim + 1; d < data.shape.size(); ++d) stride *= data.shape[d];
  std::string out = "[";
  for (int64_t i = 0; i < data.shape[dim]; ++i) {
    if (i) out += ", ";
    out += NestedList(data, dim + 1, offset + i * stride);
  }
  return out + "]";
}

bool IsOp(const graph::Expr& expr, const char* name) {
  const auto* op = expr.as<graph::OpNode>();
  return op && op->name == name;
}

}  // namespace

bool StructInfoEqual(const StructInfo& a, const StructInfo& b) {
  if (a.same_as(b)) return true;
  if (!a.defined() || !b.defined() || a->kind() != b->kind()) return false;
  if (a.isa<graph::ObjectStructInfoNode>()) return true;
  if (const auto* x = a.as<graph::PrimStructInfoNode>()) {
    const auto* y = b.as<graph::PrimStructInfoNode>();
    return x->dtype == y->dtype && x->value.defined() == y->value.defined() &&
           (!x->value.defined() || ExprDeepEqual(x->value, y->value));
  }
  if (const auto* x = a.as<graph::ShapeStructInfoNode>()) {
    const auto* y = b.as<graph::ShapeStructInfoNode>();
    if (x->ndim != y->ndim || x->values.has_value() != y->values.has_value()) return false;
    if (!x->values) return true;
    for (size_t i = 0; i < x->values->size(); ++i) {
      if (!ExprDeepEqual((*x->values)[i], (*y->values)[i])) return false;
    }
    return true;
  }
  if (const auto* x = a.as<graph::TensorStructInfoNode>()) {
    const auto* y = b.as<graph::TensorStructInfoNode>();
    if (x->dtype != y->dtype || x->ndim != y->ndim || x->shape.defined() != y->shape.defined()) return false;
    return !x->shape.defined() || ShapeEqual(x->shape, y->shape);
  }
  if (const auto* x = a.as<graph::TupleStructInfoNode>()) {
    return SInfoListEqual(x->fields, b.as<graph::TupleStructInfoNode>()->fields);
  }
  if (const auto* x = a.as<graph::FuncStructInfoNode>()) {
    const auto* y = b.as<graph::FuncStructInfoNode>();
    if (x->purity != y->purity || x->params.has_value() != y->params.has_value()) return false;
    if (x->params && !SInfoListEqual(*x->params, *y->params)) return false;
    return StructInfoEqual(x->ret, y->ret);
  }
  return false;
}

// ---------------------------------------------------------------------------
// Struct info.

std::string ScriptPrinter::SInfo(const StructInfo& sinfo) {
  if (!sinfo.defined()) return "None";
  if (sinfo.isa<graph::ObjectStructInfoNode>()) return R("Object");
  if (const auto* prim = sinfo.as<graph::PrimStructInfoNode>()) {
    if (prim->value.defined()) return R("Prim") + "(value=" + ShapeVar(prim->value) + ")";
    return R("Prim") + "(" + Quote(DTypeString(prim->dtype)) + ")";
  }
  if (const auto* shape = sinfo.as<graph::ShapeStructInfoNode>()) {
    if (!shape->values) return R("Shape") + fmt::format("(ndim={})", shape->ndim);
    std::vector<std::string> dims;
    for (const ir::PrimExpr& dim : *shape->values) dims.push_back(ShapeVar(dim));
    return R("Shape") + "([" + Join(dims) + "])";
  }
  if (const auto* tensor = sinfo.as<graph::TensorStructInfoNode>()) return TensorSInfo(tensor);
  if (const auto* tuple = sinfo.as<graph::TupleStructInfoNode>()) {
    if (tuple->fields.empty()) return R("Tuple");
    std::vector<std::string> fields;
    for (const StructInfo& field : tuple->fields) fields.push_back(SInfo(field));
    return R("Tuple") + "(" + Join(fields) + ")";
  }
  if (const auto* func = sinfo.as<graph::FuncStructInfoNode>()) return FuncSInfo(func);
  return "None";
}

std::string ScriptPrinter::ShapeVar(const ir::PrimExpr& expr) {
  std::string text = Expr(expr);
  const Frame* collecting = nullptr;
  for (const auto& frame : frames_) {
    if (frame->collecting_func_vars) {
      collecting = frame.get();
      break;
    }
  }
  if (!collecting || collecting->func_vars.empty()) return text;
  bool uses_func_var = false;
  ir::PostOrderVisit(expr, [&](const ir::PrimExpr& sub) {
    if (collecting->func_vars.count(sub.get())) uses_func_var = true;
  });
  return uses_func_var ? Quote(text) : text;
}

std::string ScriptPrinter::TensorSInfo(const graph::TensorStructInfoNode* tensor) {
  std::vector<std::string> args;
  if (tensor->shape.defined()) {
    if (const auto* shape = tensor->shape.as<graph::ShapeExprNode>()) {
      std::vector<std::string> dims;
      for (const ir::PrimExpr& dim : shape->values) dims.push_back(ShapeVar(dim));
      args.push_back(TupleText(dims));
    } else {
      args.push_back(RelaxExpr(tensor->shape));
    }
  }
  if (!tensor->IsUnknownDtype()) args.push_back("dtype=" + Quote(DTypeString(tensor->dtype)));
  if (!tensor->shape.defined() && !tensor->IsUnknownNdim()) args.push_back(fmt::format("ndim={}", tensor->ndim));
  if (args.empty()) return R("Tensor");
  return R("Tensor") + "(" + Join(args) + ")";
}

std::string ScriptPrinter::FuncSInfo(const graph::FuncStructInfoNode* func) {
  std::string ret = SInfo(func->ret);
  std::string purity = func->purity ? "True" : "False";
  if (!func->params) {
    std::vector<std::string> kwargs;
    if (!func->ret.isa<graph::ObjectStructInfoNode>()) kwargs.push_back("ret=" + ret);
    if (func->purity) kwargs.push_back("purity=True");
    return kwargs.empty() ? R("Callable") : R("Callable") + "(" + Join(kwargs) + ")";
  }
  std::vector<std::string> params;
  for (const StructInfo& param : *func->params) params.push_back(SInfo(param));
  return R("Callable") + "(" + TupleText(params) + ", " + ret + ", " + purity + ")";
}

// ---------------------------------------------------------------------------
// Expressions.

Frame& ScriptPrinter::RelaxFunctionFrame() {
  for (const auto& frame : frames_) {
    if (frame->kind == FrameKind::kRelaxFunc) return *frame;
  }
  for (const auto& frame : frames_) {
    if (frame->kind == FrameKind::kRelax) return *frame;
  }
  return Top();
}

std::string ScriptPrinter::RelaxExpr(const graph::Expr& expr) {
  if (!expr.defined()) return "None";
  switch (expr->kind()) {
    case NodeKind::kGraphVar:
    case NodeKind::kGraphDataflowVar: return RelaxVarText(expr.as<graph::VarNode>());
    case NodeKind::kGraphConstant: return ConstantExpr(expr.as<graph::ConstantNode>());
    case NodeKind::kGraphTuple: {
      const auto* tuple = expr.as<graph::TupleNode>();
      if (tuple->fields.empty()) return R("tuple") + "()";
      std::vector<std::string> fields;
      for (const graph::Expr& field : tuple->fields) fields.push_back(RelaxExpr(field));
      return TupleText(fields);
    }
    case NodeKind::kGraphTupleGetItem: {
      const auto* item = expr.as<graph::TupleGetItemNode>();
      return RelaxExpr(item->tuple) + fmt::format("[{}]", item->index);
    }
    case NodeKind::kGraphCall: return CallExpr(expr.as<graph::CallNode>());
    case NodeKind::kGraphShapeExpr: {
      std::vector<std::string> dims;
      for (const ir::PrimExpr& dim : expr.as<graph::ShapeExprNode>()->values) dims.push_back(ShapeVar(dim));
      return R("shape") + "([" + Join(dims) + "])";
    }
    case NodeKind::kGraphPrimValue: return R("prim_value") + "(" + Expr(expr.as<graph::PrimValueNode>()->value) + ")";
    case NodeKind::kGraphStringImm: return R("str") + "(" + Quote(expr.as<graph::StringImmNode>()->value) + ")";
    case NodeKind::kGraphDataTypeImm: return R("dtype") + "(" + Quote(expr.as<graph::DataTypeImmNode>()->value.ToString()) + ")";
    case NodeKind::kGraphExternFunc:
      return R("ExternFunc") + "(" + Quote(expr.as<graph::ExternFuncNode>()->global_symbol) + ")";
    case NodeKind::kGraphGlobalVar: return GlobalVarText(expr.as<graph::GlobalVarNode>());
    case NodeKind::kGraphOp: return I("Op") + "(" + Quote(expr.as<graph::OpNode>()->name) + ")";
    default:
      // If, SeqExpr and Function only print as statements (bindings).
      return Quote(std::string("<") + NodeKindName(expr->kind()) + ">");
  }
}

std::string ScriptPrinter::RelaxVarText(const graph::VarNode* var) {
  if (IsDefined(var)) return NameOf(var);
  // A free variable (printing a fragment): declare it with its annotation.
  std::string annotation = SInfo(var->struct_info);
  std::string name = Define(var, Top(), var->name_hint.empty() ? "v" : var->name_hint);
  Top().stmts.push_back(Line(name + ": " + annotation));
  return name;
}

std::string ScriptPrinter::GlobalVarText(const graph::GlobalVarNode* gvar) {
  if (!module_.defined() || !module_->Contains(gvar->name_hint) || !IsDefined(module_.get())) {
    return gvar->name_hint;
  }
  Frame& frame = RelaxFunctionFrame();
  if (frame.kind == FrameKind::kRelaxFunc && !frame.module_alias_printed) {
    frame.stmts.push_back(Line("cls = " + NameOf(module_.get())));
    frame.module_alias_printed = true;
  }
  return "cls." + gvar->name_hint;
}

std::string ScriptPrinter::Callee(const graph::Expr& expr) {
  if (const auto* extern_func = expr.as<graph::ExternFuncNode>()) return Quote(extern_func->global_symbol);
  return RelaxExpr(expr);
}

std::string ScriptPrinter::CallExpr(const graph::CallNode* call) {
  if (const auto* op = call->op.as<graph::OpNode>()) {
    if (std::optional<std::string> special = SpecialCall(call, op->name)) return *special;
    return OpCallExpr(call, op->name);
  }
  std::vector<std::string> args;
  std::string prefix;
  if (const auto* extern_func = call->op.as<graph::ExternFuncNode>()) {
    prefix = R("call_packed");
    args.push_back(Quote(extern_func->global_symbol));
  } else {
    prefix = RelaxExpr(call->op);
  }
  for (size_t i = 0; i < call->args.size(); ++i) {
    args.push_back(i == 0 ? Callee(call->args[i]) : RelaxExpr(call->args[i]));
  }
  if (call->attrs.defined()) {
    for (const auto& [key, value] : call->attrs->items) args.push_back(key + "=" + AttrValue(value));
  }
  if (!call->sinfo_args.empty()) {
    std::vector<std::string> sinfos;
    for (const StructInfo& sinfo : call->sinfo_args) sinfos.push_back(SInfo(sinfo));
    args.push_back("sinfo_args=" + TupleText(sinfos));
  }
  return prefix + "(" + Join(args) + ")";
}

std::optional<std::string> ScriptPrinter::SpecialCall(const graph::CallNode* call, const std::string& op_name) {
  bool dps = op_name == "relax.call_tir" || op_name == "relax.call_dps_packed" ||
             op_name == "relax.call_tir_inplace" || op_name == "relax.call_tir_with_grad";
  if (dps && call->args.size() >= 2 && call->args.size() <= 3 && call->sinfo_args.size() == 1) {
    return CallTIRExpr(call, op_name);
  }
  return std::nullopt;
}

std::string ScriptPrinter::CallTIRExpr(const graph::CallNode* call, const std::string& op_name) {
  std::vector<std::string> args = {Callee(call->args[0]), RelaxExpr(call->args[1])};
  const StructInfo& out = call->sinfo_args[0];
  if (const auto* tuple = out.as<graph::TupleStructInfoNode>()) {
    std::vector<std::string> fields;
    for (const StructInfo& field : tuple->fields) fields.push_back(SInfo(field));
    args.push_back("out_sinfo=[" + Join(fields) + "]");
  } else {
    args.push_back("out_sinfo=" + SInfo(out));
  }
  ObjectRef inplace = call->attrs.defined() ? call->attrs->Get("inplace_indices") : ObjectRef();
  if (op_name == "relax.call_tir_inplace") args.push_back("inplace_indices=" + AttrValue(inplace));
  if (op_name == "relax.call_tir_with_grad") {
    args.push_back("te_grad_name=" + AttrValue(call->attrs.defined() ? call->attrs->Get("te_grad_name") : nullptr));
    ObjectRef kwargs = call->attrs.defined() ? call->attrs->Get("te_grad_kwargs") : ObjectRef();
    const auto* dict = kwargs.as<ir::DictNode>();
    if (dict && !dict->items.empty()) args.push_back("te_grad_kwargs=" + AttrValue(kwargs));
    return R("call_tir_with_grad") + "(" + Join(args) + ")";
  }
  if (op_name == "relax.call_dps_packed") return R("call_dps_packed") + "(" + Join(args) + ")";
  if (call->args.size() == 3) args.push_back("tir_vars=" + RelaxExpr(call->args[2]));
  return R(op_name.substr(6)) + "(" + Join(args) + ")";
}

std::string ScriptPrinter::OpCallExpr(const graph::CallNode* call, const std::string& op_name) {
  const graph::OpInfo* info = graph::FindOp(op_name);
  std::string prefix = info ? info->script_name : op_name;
  if (!info && prefix.rfind("relax.", 0) == 0) prefix = "R." + prefix.substr(6);
  if (prefix.rfind("R.", 0) == 0) prefix = R(prefix.substr(2));
  std::vector<std::string> args;
  for (size_t i = 0; i < call->args.size(); ++i) {
    args.push_back(i == 0 ? Callee(call->args[i]) : RelaxExpr(call->args[i]));
  }
  std::unordered_set<std::string> printed;
  if (info) {
    for (const graph::AttrSpec& spec : info->attrs) {
      // A missing attribute means its default, or None for the optional kinds
      // (whose defaults, like concat's axis=0, the parser and the
      // constructors store explicitly).
      ObjectRef value = call->attrs.defined() ? call->attrs->Get(spec.name) : ObjectRef();
      bool optional = spec.kind == graph::AttrKind::kOptionalInt || spec.kind == graph::AttrKind::kOptionalIntList ||
                      spec.kind == graph::AttrKind::kOptionalPrimValue;
      if (!value.defined() && !optional) value = spec.default_value;
      args.push_back(spec.name + "=" + OpAttrValue(value, spec.kind));
      printed.insert(spec.name);
    }
  }
  if (call->attrs.defined()) {
    for (const auto& [key, value] : call->attrs->items) {
      if (!printed.count(key)) args.push_back(key + "=" + AttrValue(value));
    }
  }
  if (!call->sinfo_args.empty()) {
    std::vector<std::string> sinfos;
    for (const StructInfo& sinfo : call->sinfo_args) sinfos.push_back(SInfo(sinfo));
    args.push_back("sinfo_args=" + TupleText(sinfos));
  }
  return prefix + "(" + Join(args) + ")";
}

std::string ScriptPrinter::ConstantExpr(const graph::ConstantNode* constant) {
  if (!constant->data) return R("const") + "(None)";
  const graph::TensorData& data = *constant->data;
  int64_t needed = data.NumElements() * data.dtype.bytes();
  if (static_cast<int64_t>(data.bytes.size()) < needed) {
    return R("const") + "(" + Quote("<truncated payload>") + ", " + Quote(DTypeString(data.dtype)) + ")";
  }
  return R("const") + "(" + NestedList(data, 0, 0) + ", " + Quote(DTypeString(data.dtype)) + ")";
}

// ---------------------------------------------------------------------------
// Functions, blocks and bindings.

std::string ScriptPrinter::DefineRelaxVar(const graph::Var& var) {
  if (IsDefined(var.get())) return NameOf(var.get());
  return Define(var.get(), Top(), var->name_hint.empty() ? "v" : var->name_hint);
}

std::string ScriptPrinter::FunctionDecorator(const graph::Function& func, bool top_level) {
  std::vector<std::string> kwargs;
  if (!func->is_pure) kwargs.push_back("pure=False");
  if (top_level && func->is_private) kwargs.push_back("private=True");
  std::string decorator = "@" + R("function");
  return kwargs.empty() ? decorator : decorator + "(" + Join(kwargs) + ")";
}

namespace {

// Graph variables that are used (not only defined) somewhere in a function.
class UsedVarCollector : public graph::ExprVisitor {
 public:
  std::unordered_set<const Node*> used;

 protected:
  void VisitExpr_(const graph::VarNode* op, const graph::Expr& self) override {
    used.insert(op);
    graph::ExprVisitor::VisitExpr_(op, self);
  }
  void VisitExpr_(const graph::DataflowVarNode* op, const graph::Expr& self) override {
    used.insert(op);
    graph::ExprVisitor::VisitExpr_(op, self);
  }
};

}  // namespace

Docs ScriptPrinter::FunctionDocs(const graph::Function& func, const std::string& name, bool top_level) {
  if (top_level) {
    UsedVarCollector collector;
    collector.VisitExpr(func);
    used_relax_vars_ = std::move(collector.used);
  }
  bool saved_mode = relax_mode_;
  relax_mode_ = true;
  FrameGuard frame(this, FrameKind::kRelaxFunc);
  // The signature: return annotation first, then parameters (TVM's order,
  // which decides where symbolic variables are first met).
  frame->collecting_func_vars = true;
  std::string ret = func->ret_struct_info.defined() ? " -> " + SInfo(func->ret_struct_info) : "";
  std::vector<std::string> params;
  for (const graph::Var& param : func->params) {
    std::string param_name = DefineRelaxVar(param);
    params.push_back(param->struct_info.defined() ? param_name + ": " + SInfo(param->struct_info) : param_name);
  }
  frame->collecting_func_vars = false;
  if (func->attrs.defined()) {
    ObjectRef symbol = func->attrs->Get("global_symbol");
    const auto* symbol_str = symbol.as<ir::StringImmNode>();
    std::string drop = top_level && symbol_str && symbol_str->value == name ? "global_symbol" : "";
    if (func->attrs->items.size() > (drop.empty() ? 0u : 1u)) {
      frame->stmts.push_back(Line(R("func_attr") + "(" + DictText(func->attrs, drop) + ")"));
    }
  }
  std::string decorator = FunctionDecorator(func, top_level);
  Append(&frame->stmts, SeqExprDocs(func->body, /*use_return=*/true));
  Doc def = Block("def " + name + "(" + Join(params) + ")" + ret + ":", std::move(frame->stmts));
  def.blank_line_after = true;
  relax_mode_ = saved_mode;
  return {Line(decorator), std::move(def)};
}

Docs ScriptPrinter::SeqExprDocs(const graph::Expr& expr, bool use_return) {
  FrameGuard frame(this, FrameKind::kRelax);
  graph::Expr result = expr;
  if (const auto* seq = expr.as<graph::SeqExprNode>()) {
    for (const graph::BindingBlock& block : seq->blocks) Append(&frame->stmts, BindingBlockDocs(block));
    result = seq->body;
  }
  std::string text = RelaxExpr(result);
  frame->stmts.push_back(Line(use_return ? "return " + text : text));
  return std::move(frame->stmts);
}

Docs ScriptPrinter::BindingBlockDocs(const graph::BindingBlock& block) {
  Docs stmts;
  std::vector<std::string> outputs;
  for (const graph::Binding& binding : block->bindings) {
    Append(&stmts, BindingDocs(binding));
    if (block->is_dataflow() && !binding->var.isa<graph::DataflowVarNode>()) {
      outputs.push_back(RelaxExpr(binding->var));
    }
  }
  if (!block->is_dataflow()) return stmts;
  stmts.push_back(Line(R("output") + "(" + Join(outputs) + ")"));
  return {Block("with " + R("dataflow") + "():", std::move(stmts))};
}

std::optional<std::string> ScriptPrinter::Annotation(const graph::Var& var, const graph::Expr& value) {
  if (!var->struct_info.defined()) return std::nullopt;
  const auto* call = value.as<graph::CallNode>();
  if (call && (IsOp(call->op, "relax.call_tir") || IsOp(call->op, "relax.call_dps_packed")) &&
      call->sinfo_args.size() == 1 && StructInfoEqual(call->sinfo_args[0], var->struct_info)) {
    return std::nullopt;  // out_sinfo already says it
  }
  return SInfo(var->struct_info);
}

Docs ScriptPrinter::BindingDocs(const graph::Binding& binding) {
  const graph::Var& var = binding->var;
  if (const auto* match = binding.as<graph::MatchCastNode>()) {
    std::optional<std::string> annotation = Annotation(var, match->value);
    std::string rhs = R("match_cast") + "(" + RelaxExpr(match->value) + ", " + SInfo(match->struct_info) + ")";
    std::string lhs = DefineRelaxVar(var);
    return {Line(lhs + (annotation ? ": " + *annotation : "") + " = " + rhs)};
  }
  const auto* bind = binding.as<graph::VarBindingNode>();
  if (const auto* if_node = bind->value.as<graph::IfNode>()) return IfBindingDocs(bind, if_node);
  if (bind->value.isa<graph::FunctionNode>()) {
    std::string name = DefineRelaxVar(var);
    return FunctionDocs(cast<graph::FunctionNode>(bind->value), name, /*top_level=*/false);
  }
  StructInfo value_sinfo = bind->value.defined() ? bind->value->struct_info : StructInfo();
  // A void call whose result is never used prints as a bare statement.
  if (IsVoid(value_sinfo) && IsVoid(var->struct_info) && bind->value.isa<graph::CallNode>() &&
      !used_relax_vars_.count(var.get())) {
    return {Line(RelaxExpr(bind->value))};
  }
  std::string rhs = RelaxExpr(bind->value);
  std::optional<std::string> annotation = Annotation(var, bind->value);
  std::string lhs = DefineRelaxVar(var);
  return {Line(lhs + (annotation ? ": " + *annotation : "") + " = " + rhs)};
}

Docs ScriptPrinter::IfBindingDocs(const graph::VarBindingNode* binding, const graph::IfNode* if_node) {
  std::optional<std::string> annotation = Annotation(binding->var, binding->value);
  std::string lhs = DefineRelaxVar(binding->var) + (annotation ? ": " + *annotation : "");
  std::string cond = RelaxExpr(if_node->cond);
  auto branch = [&](const graph::Expr& seq) {
    Docs docs = SeqExprDocs(seq, /*use_return=*/false);
    docs.back().line = lhs + " = " + docs.back().line;
    return docs;
  };
  Docs then_docs = branch(if_node->true_branch);
  Docs else_docs = branch(if_node->false_branch);
  return {Block("if " + cond + ":", std::move(then_docs)), Block("else:", std::move(else_docs))};
}

}  // namespace rlx::text::detail
