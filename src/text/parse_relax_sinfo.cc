// Struct info annotations and symbolic dimensions (see relax_parser.h).
//
// Spellings (TVM's python/tvm/script/parser/relax/entry.py):
//   R.Tensor((n, 4), "float32"), R.Tensor((n, 4), dtype="float32"),
//   R.Tensor("float32", ndim=2), R.Tensor(dtype="float32", ndim=2),
//   R.Tensor(ndim=2), R.Tensor, R.Tensor(s, "float32") with s a shape var;
//   R.Shape([n, 4]), R.Shape(ndim=2), R.Shape; R.Prim("int64"),
//   R.Prim(value=n); R.Object (or R.Any); x.struct_info (the struct info of
//   the graph value x); R.Tuple(a, b), R.Tuple([a, b]), R.Tuple;
//   R.Callable((a, b), ret, purity), R.Callable(ret=..., purity=True),
//   R.Callable; None (the empty tuple, as in TVM: `-> None`). An opaque Callable (no parameter list) without purity= is
//   impure, the reading of what the printer writes (it prints purity=True
//   only for pure ones); a Callable with parameters is pure by default.
// A dimension is a scalar expression, or a string holding one ("n",
// "n * 2"). What an undefined name means depends on the DimMode: in a
// parameter annotation and in R.match_cast a bare name defines a new int64
// symbolic variable; elsewhere it is an error, and in the body a symbolic
// variable must already be defined (by a parameter or a match_cast).
#include <fmt/format.h>

#include <cctype>

#include "rlx/graph/struct_info_analysis.h"
#include "rlx/ir/functor.h"
#include "text/relax_parser.h"

namespace rlx::text::detail {

using graph::StructInfo;
using ir::PrimExpr;

namespace {

bool DefinesNames(RelaxParser::DimMode mode) {
  return mode == RelaxParser::DimMode::kParam || mode == RelaxParser::DimMode::kMatchCast ||
         mode == RelaxParser::DimMode::kCallable;
}

StructInfo WithSInfoSpan(StructInfo sinfo, const Span& span) {
  if (sinfo->use_count() == 1 && !sinfo->span.defined()) const_cast<graph::StructInfoNode*>(sinfo.get())->span = span;
  return sinfo;
}

}  // namespace

StructInfo RelaxParser::EvalSInfo(const py::Expr& expr, DimMode mode) {
  StructInfo result;
  const auto* call = expr.As<py::Call>();
  std::string name = call ? CalleeName(*call) : DottedName(expr).value_or("");
  if (IsNone(&expr)) {
    // TVM reads a `None` annotation (`-> None`) as the empty tuple, the
    // struct info of a function that returns nothing.
    result = graph::TupleSInfo({});
  } else if (const std::vector<py::ExprPtr>* elts = AsSequence(expr)) {
    std::vector<StructInfo> fields;
    for (const py::ExprPtr& elt : *elts) fields.push_back(EvalSInfo(*elt, mode));
    result = graph::TupleSInfo(std::move(fields));
  } else if (call == nullptr && name == "R.Tensor") {
    result = graph::TensorSInfo(DataType::Void(), -1);
  } else if (call == nullptr && name == "R.Shape") {
    result = graph::ShapeSInfo(-1);
  } else if (name == "R.Object" || name == "R.Any") {  // R.Any: TVM's newer name
    if (call && (!call->args.empty() || !call->keywords.empty())) Fail(call->span, name + " takes no arguments");
    result = graph::ObjectSInfo();
  } else if (const auto* attr = expr.As<py::Attribute>(); attr && attr->attr == "struct_info") {
    // `x.struct_info`: the struct info of a graph value (TVM evaluates the
    // Python attribute); its symbolic variables are those of x.
    graph::Expr value = EvalExpr(*attr->value);
    if (!value->struct_info.defined()) Fail(expr.span, "this value has no struct info yet");
    return value->struct_info;
  } else if (call == nullptr && name == "R.Tuple") {
    result = graph::TupleSInfo({});
  } else if (call == nullptr && name == "R.Callable") {
    result = graph::FuncStructInfoNode::Opaque(graph::ObjectSInfo(), /*purity=*/false);
  } else if (call != nullptr && name == "R.Tensor") {
    result = EvalTensorSInfo(*call, mode);
  } else if (call != nullptr && name == "R.Shape") {
    result = EvalShapeSInfo(*call, mode);
  } else if (call != nullptr && name == "R.Prim") {
    result = EvalPrimSInfo(*call, mode);
  } else if (call != nullptr && name == "R.Tuple") {
    if (!call->keywords.empty()) Fail(call->keywords[0].span, "R.Tuple takes no keyword arguments");
    std::vector<StructInfo> fields;
    if (call->args.size() == 1 && AsSequence(*call->args[0])) {
      for (const py::ExprPtr& elt : *AsSequence(*call->args[0])) fields.push_back(EvalSInfo(*elt, mode));
    } else {
      for (const py::ExprPtr& arg : call->args) fields.push_back(EvalSInfo(*arg, mode));
    }
    result = graph::TupleSInfo(std::move(fields));
  } else if (call != nullptr && name == "R.Callable") {
    result = EvalCallableSInfo(*call, mode);
  } else {
    Fail(expr.span, fmt::format("expected a struct info annotation such as R.Tensor((n, 4), \"float32\"), got {}",
                                Describe(expr)));
  }
  if (mode == DimMode::kUse) CheckDefined(result, expr.span);
  return WithSInfoSpan(result, expr.span);
}

std::vector<StructInfo> RelaxParser::EvalSInfoList(const py::Expr& expr, DimMode mode) {
  std::vector<StructInfo> result;
  if (const std::vector<py::ExprPtr>* elts = AsSequence(expr)) {
    for (const py::ExprPtr& elt : *elts) result.push_back(EvalSInfo(*elt, mode));
  } else {
    result.push_back(EvalSInfo(expr, mode));
  }
  return result;
}

StructInfo RelaxParser::EvalTensorSInfo(const py::Call& call, DimMode mode) {
  CallArgs args(call, "R.Tensor", {"shape", "dtype", "vdevice", "ndim"}, 0);
  const py::Expr* shape = args.Has("shape") ? args.Get("shape") : nullptr;
  const py::Expr* dtype_expr = args.Has("dtype") ? args.Get("dtype") : nullptr;
  if (shape != nullptr && AsStringLiteral(*shape) && dtype_expr == nullptr) {
    dtype_expr = shape;  // R.Tensor("float32", ndim=2)
    shape = nullptr;
  }
  if (args.Has("vdevice")) Fail(args.Get("vdevice")->span, "R.Tensor: vdevice is not supported");
  DataType dtype = dtype_expr ? EvalDType(*dtype_expr) : DataType::Void();
  int ndim = -1;
  if (args.Has("ndim")) {
    std::optional<int64_t> value = AsIntLiteral(*args.Get("ndim"));
    if (!value || *value < -1) Fail(args.Get("ndim")->span, "R.Tensor: ndim must be an integer >= -1");
    ndim = static_cast<int>(*value);
  }
  if (shape == nullptr) return graph::TensorSInfo(dtype, ndim);
  if (AsSequence(*shape)) {
    std::vector<PrimExpr> dims = EvalDims(*shape, mode);
    if (ndim != -1 && ndim != static_cast<int>(dims.size())) {
      Fail(args.Get("ndim")->span, fmt::format("R.Tensor: ndim={} does not match the shape {}", ndim,
                                               ir::ShapeToString(dims)));
    }
    return graph::TensorSInfo(std::move(dims), dtype);
  }
  if (const auto* name = shape->As<py::Name>()) {
    const Symbol* symbol = scopes_.Lookup(name->id);
    if (symbol && symbol->kind == SymbolKind::kRelaxVar && symbol->relax_var->struct_info.isa<graph::ShapeStructInfoNode>()) {
      return make<graph::TensorStructInfoNode>(symbol->relax_var, dtype);
    }
  }
  Fail(shape->span, fmt::format("R.Tensor: expected a shape such as (n, 4), got {}", Describe(*shape)));
}

StructInfo RelaxParser::EvalShapeSInfo(const py::Call& call, DimMode mode) {
  CallArgs args(call, "R.Shape", {"values", "ndim"}, 0);
  if (args.Has("values")) {
    const py::Expr& values = *args.Get("values");
    if (!AsSequence(values)) Fail(values.span, fmt::format("R.Shape expects a list of dimensions, got {}", Describe(values)));
    return graph::ShapeSInfo(EvalDims(values, mode));
  }
  int ndim = -1;
  if (args.Has("ndim")) {
    std::optional<int64_t> value = AsIntLiteral(*args.Get("ndim"));
    if (!value || *value < -1) Fail(args.Get("ndim")->span, "R.Shape: ndim must be an integer >= -1");
    ndim = static_cast<int>(*value);
  }
  return graph::ShapeSInfo(ndim);
}

StructInfo RelaxParser::EvalPrimSInfo(const py::Call& call, DimMode mode) {
  CallArgs args(call, "R.Prim", {"dtype", "value"}, 0);
  if (args.Has("value")) {
    PrimExpr value = EvalDim(*args.Get("value"), mode);
    if (args.Has("dtype") && EvalDType(*args.Get("dtype")) != value->dtype) {
      Fail(args.Get("dtype")->span, fmt::format("R.Prim: dtype does not match the value's type {}", value->dtype.ToString()));
    }
    return graph::PrimValueSInfo(value);
  }
  if (!args.Has("dtype")) Fail(call.span, "R.Prim needs a dtype (R.Prim(\"int64\")) or a value (R.Prim(value=n))");
  return graph::PrimSInfo(EvalDType(*args.Get("dtype")));
}

StructInfo RelaxParser::EvalCallableSInfo(const py::Call& call, DimMode mode) {
  CallArgs args(call, "R.Callable", {"params", "ret", "purity", "derive_func"}, 0);
  DimMode inner = mode == DimMode::kRet || mode == DimMode::kUse ? DimMode::kCallable : mode;
  StructInfo ret = args.Has("ret") ? EvalSInfo(*args.Get("ret"), inner) : graph::ObjectSInfo();
  std::optional<bool> purity;
  if (args.Has("purity")) {
    purity = AsBoolLiteral(*args.Get("purity"));
    if (!purity) Fail(args.Get("purity")->span, "R.Callable: purity must be True or False");
  }
  if (args.Has("derive_func")) Fail(args.Get("derive_func")->span, "R.Callable: derive_func is not supported");
  if (!args.Has("params")) return graph::FuncStructInfoNode::Opaque(ret, purity.value_or(false));
  const py::Expr& params_expr = *args.Get("params");
  if (!AsSequence(params_expr)) Fail(params_expr.span, "R.Callable expects a tuple of parameter struct infos");
  std::vector<StructInfo> params;
  for (const py::ExprPtr& param : *AsSequence(params_expr)) params.push_back(EvalSInfo(*param, inner));
  return make<graph::FuncStructInfoNode>(std::move(params), ret, purity.value_or(true));
}

// ---------------------------------------------------------------------------
// Dimensions.

std::vector<PrimExpr> RelaxParser::EvalDims(const py::Expr& expr, DimMode mode) {
  const std::vector<py::ExprPtr>* elts = AsSequence(expr);
  if (elts == nullptr) Fail(expr.span, fmt::format("expected a list of dimensions, got {}", Describe(expr)));
  std::vector<PrimExpr> dims;
  for (const py::ExprPtr& elt : *elts) {
    PrimExpr dim = EvalDim(*elt, mode);
    if (!dim->dtype.is_integer()) {
      Fail(elt->span, fmt::format("a dimension must be an integer, got a value of type {}",
                                  dim->dtype.is_void() ? "void" : dim->dtype.ToString()));
    }
    dims.push_back(dim);
  }
  return dims;
}

PrimExpr RelaxParser::EvalDim(const py::Expr& expr, DimMode mode) {
  if (std::optional<std::string> text = AsStringLiteral(expr)) return EvalDimString(expr, *text, mode);
  if (const auto* name = expr.As<py::Name>(); name && DefinesNames(mode) && !scopes_.Lookup(name->id)) {
    ir::Var var = ir::MakeVar(name->id, DataType::Int64());
    const_cast<ir::VarNode*>(var.get())->span = name->span;
    scopes_.DefinePrimVar(name->id, var);
    return var;
  }
  PrimExpr value = prim_.Eval(expr);
  if (mode == DimMode::kUse) CheckDefined(value, expr.span);
  return value;
}

// Defines the symbolic variables that a parameter annotation names bare
// (`n` or "n" as a dimension of R.Tensor / R.Shape, or R.Prim(value="n")),
// without evaluating anything else. R.Callable annotations are skipped:
// their variables are local to them.
void RelaxParser::PredefineBareDims(const py::Expr& annotation) {
  auto define = [&](const py::Expr& dim) {
    std::optional<std::string> text = AsStringLiteral(dim);
    const auto* name = dim.As<py::Name>();
    std::string id = text ? *text : name ? name->id : "";
    if (id.empty() || !(std::isalpha(static_cast<unsigned char>(id[0])) || id[0] == '_')) return;
    for (char c : id) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return;
    }
    if (!scopes_.Lookup(id)) EvalDim(dim, DimMode::kParam);
  };
  const auto* call = annotation.As<py::Call>();
  if (call == nullptr) return;
  std::string name = CalleeName(*call);
  if (name == "R.Tensor" || name == "R.Shape") {
    const py::Expr* shape = !call->args.empty() ? call->args[0].get() : nullptr;
    for (const py::Keyword& keyword : call->keywords) {
      if (keyword.name == "shape" || keyword.name == "values") shape = keyword.value.get();
    }
    if (const std::vector<py::ExprPtr>* dims = shape ? AsSequence(*shape) : nullptr) {
      for (const py::ExprPtr& dim : *dims) define(*dim);
    }
  } else if (name == "R.Prim") {
    for (const py::Keyword& keyword : call->keywords) {
      if (keyword.name == "value") define(*keyword.value);
    }
  } else if (name == "R.Tuple") {
    for (const py::ExprPtr& arg : call->args) {
      if (const std::vector<py::ExprPtr>* elts = AsSequence(*arg)) {
        for (const py::ExprPtr& elt : *elts) PredefineBareDims(*elt);
      } else {
        PredefineBareDims(*arg);
      }
    }
  }
}

PrimExpr RelaxParser::EvalDimString(const py::Expr& expr, const std::string& text, DimMode mode) {
  auto source = std::make_shared<SourceFile>("<dimension>", text + "\n");
  try {
    std::unique_ptr<py::Module> module = py::ParsePython(source);
    const py::ExprStmt* stmt = module->body.size() == 1 ? module->body[0]->As<py::ExprStmt>() : nullptr;
    if (stmt == nullptr || AsStringLiteral(*stmt->value)) {
      Fail(expr.span, fmt::format("invalid dimension \"{}\": expected an expression such as \"n\" or \"n * 2\"", text));
    }
    return EvalDim(*stmt->value, mode);
  } catch (const CompileError& error) {
    if (error.diagnostic().span.source != source) throw;
    Fail(expr.span, error.diagnostic().message);  // re-anchor at the string literal
  }
}

void RelaxParser::CheckDefined(const PrimExpr& expr, const Span& span) {
  if (!function_scope_open_ || !bb_) return;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    const auto* var = sub.as<ir::VarNode>();
    if (var != nullptr && !bb_->IsSymbolicVarDefined(cast<ir::VarNode>(sub))) {
      Fail(span, fmt::format("symbolic variable '{}' is not defined here; symbolic variables are defined by a "
                             "parameter annotation or R.match_cast", var->name_hint));
    }
  });
}

void RelaxParser::CheckDefined(const StructInfo& sinfo, const Span& span) {
  if (const auto* shape = sinfo.as<graph::ShapeStructInfoNode>()) {
    if (shape->values) {
      for (const PrimExpr& dim : *shape->values) CheckDefined(dim, span);
    }
  } else if (const auto* tensor = sinfo.as<graph::TensorStructInfoNode>()) {
    if (const auto* shape_expr = tensor->shape.as<graph::ShapeExprNode>()) {
      for (const PrimExpr& dim : shape_expr->values) CheckDefined(dim, span);
    }
  } else if (const auto* prim = sinfo.as<graph::PrimStructInfoNode>()) {
    if (prim->value.defined()) CheckDefined(prim->value, span);
  } else if (const auto* tuple = sinfo.as<graph::TupleStructInfoNode>()) {
    for (const StructInfo& field : tuple->fields) CheckDefined(field, span);
  }
}

}  // namespace rlx::text::detail
