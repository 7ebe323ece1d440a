// Graph-level (Relax) expressions (see relax_parser.h).
//
// - Names: graph variables; a symbolic variable used as a value is a
//   PrimValue; `cls.f` / `Module.f` (and, for top-level functions, `f`) are
//   GlobalVars. Python numbers are PrimValues (int64 / float32 / bool),
//   strings StringImms, tuples and lists Tuples, `t[i]` a TupleGetItem.
// - Operators are found by script name in the registry (`R.nn.relu`).
//   Positional arguments fill OpInfo::args (a variadic operator takes every
//   positional argument as a graph argument; a string in the `func`
//   position is an ExternFunc); further positional and keyword arguments
//   are attributes, converted by their AttrKind. A missing attribute gets its
//   default; None leaves it out of the Call's attributes; `sinfo_args=` gives
//   explicit output struct info. Arithmetic and comparisons on graph values
//   are the elementwise operators (`a + b` is R.add(a, b)).
// - Builtins with their own form: R.call_tir / R.call_tir_inplace /
//   R.call_tir_with_grad / R.call_dps_packed (callee, tuple of arguments,
//   out_sinfo= or out_ty=, tir_vars=; TVM's positional orders), R.call_packed("f", ...) (a call of an ExternFunc, as TVM),
//   R.const(value, dtype) (scalars and nested lists; ints default to int32,
//   floats to float32, as TVM), R.shape([...]), R.prim_value(x), R.str(s), R.dtype(s),
//   R.ExternFunc(s), R.tuple(...).
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "rlx/graph/struct_info_analysis.h"
#include "text/relax_parser.h"

namespace rlx::text::detail {

using graph::Expr;
using graph::StructInfo;

namespace {

template <typename T>
Expr WithExprSpan(T* node, const Span& span) {
  node->span = span;
  return Expr(node);
}

std::string OpArgList(const graph::OpInfo& info) {
  return fmt::format("{}", fmt::join(info.args, ", "));
}

// ---------------------------------------------------------------------------
// R.const payloads.

struct ConstElement {
  bool is_float = false;
  bool is_bool = false;
  double float_value = 0;
  int64_t int_value = 0;
};

void CollectConst(const py::Expr& expr, size_t depth, std::vector<int64_t>* shape, std::vector<ConstElement>* out) {
  if (const std::vector<py::ExprPtr>* elts = AsSequence(expr)) {
    if (depth == shape->size()) {
      if (!out->empty()) Fail(expr.span, "R.const: a nested list must be rectangular");
      shape->push_back(static_cast<int64_t>(elts->size()));
    } else if ((*shape)[depth] != static_cast<int64_t>(elts->size())) {
      Fail(expr.span, "R.const: a nested list must be rectangular");
    }
    for (const py::ExprPtr& elt : *elts) CollectConst(*elt, depth + 1, shape, out);
    return;
  }
  if (depth != shape->size()) Fail(expr.span, "R.const: a nested list must be rectangular");
  ConstElement element;
  if (std::optional<int64_t> i = AsIntLiteral(expr)) {
    element.int_value = *i;
    element.float_value = static_cast<double>(*i);
  } else if (std::optional<bool> b = AsBoolLiteral(expr)) {
    element.is_bool = true;
    element.int_value = *b;
    element.float_value = *b;
  } else if (const py::Constant* c = AsConstant(expr, py::ConstantKind::kFloat)) {
    element.is_float = true;
    element.float_value = c->float_value;
  } else if (const auto* neg = expr.As<py::UnaryOp>();
             neg && neg->op == py::UnaryOpKind::kUSub && AsConstant(*neg->operand, py::ConstantKind::kFloat)) {
    element.is_float = true;
    element.float_value = -AsConstant(*neg->operand, py::ConstantKind::kFloat)->float_value;
  } else if (const py::Constant* s = AsConstant(expr, py::ConstantKind::kString);
             s && (s->string_value == "inf" || s->string_value == "-inf" || s->string_value == "nan")) {
    element.is_float = true;
    element.float_value = s->string_value == "nan" ? std::nan("") : s->string_value == "inf" ? INFINITY : -INFINITY;
  } else {
    Fail(expr.span, fmt::format("R.const expects numbers or nested lists of numbers, got {}", Describe(expr)));
  }
  out->push_back(element);
}

uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    if ((mantissa >> (shift - 1)) & 1) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  if (mantissa & 0x1000) ++half;  // round half up
  return static_cast<uint16_t>(half);
}

uint16_t FloatToBFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);  // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

template <typename T>
void Append(std::vector<uint8_t>* bytes, T value) {
  size_t offset = bytes->size();
  bytes->resize(offset + sizeof(T));
  std::memcpy(bytes->data() + offset, &value, sizeof(T));
}

void Encode(const ConstElement& e, DataType dtype, std::vector<uint8_t>* bytes) {
  if (dtype.is_bool()) return Append<uint8_t>(bytes, e.float_value != 0);
  if (dtype.is_bfloat16()) return Append<uint16_t>(bytes, FloatToBFloat16(static_cast<float>(e.float_value)));
  if (dtype.is_float()) {
    if (dtype.bits() == 16) return Append<uint16_t>(bytes, FloatToHalf(static_cast<float>(e.float_value)));
    if (dtype.bits() == 32) return Append<float>(bytes, static_cast<float>(e.float_value));
    return Append<double>(bytes, e.float_value);
  }
  int64_t v = e.is_float ? static_cast<int64_t>(e.float_value) : e.int_value;
  switch (dtype.bits()) {
    case 8: return Append<int8_t>(bytes, static_cast<int8_t>(v));
    case 16: return Append<int16_t>(bytes, static_cast<int16_t>(v));
    case 32: return Append<int32_t>(bytes, static_cast<int32_t>(v));
    default: return Append<int64_t>(bytes, v);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Expressions.

Expr RelaxParser::EvalExpr(const py::Expr& expr) {
  switch (expr.kind) {
    case py::NodeKind::kName: return EvalName(expr.Cast<py::Name>());
    case py::NodeKind::kConstant: {
      if (AsStringLiteral(expr)) return WithExprSpan(new graph::StringImmNode(*AsStringLiteral(expr)), expr.span);
      if (IsNone(&expr)) Fail(expr.span, "None is not a Relax value (R.null_value() makes a null object)");
      return WithExprSpan(new graph::PrimValueNode(prim_.Eval(expr)), expr.span);
    }
    case py::NodeKind::kAttribute: return EvalAttribute(expr.Cast<py::Attribute>());
    case py::NodeKind::kCall: return EvalCall(expr.Cast<py::Call>());
    case py::NodeKind::kTuple:
    case py::NodeKind::kList: {
      std::vector<Expr> fields;
      for (const py::ExprPtr& elt : *AsSequence(expr)) fields.push_back(EvalExpr(*elt));
      return WithExprSpan(new graph::TupleNode(std::move(fields)), expr.span);
    }
    case py::NodeKind::kSubscript: {
      const auto& sub = expr.Cast<py::Subscript>();
      if (std::optional<Expr> entry = MetadataEntry(sub)) return *entry;
      Expr tuple = EvalExpr(*sub.value);
      std::optional<int64_t> index = AsIntLiteral(*sub.index);
      if (!index || *index < 0) Fail(sub.index->span, "a tuple index must be a non-negative integer literal");
      return WithExprSpan(new graph::TupleGetItemNode(tuple, static_cast<int>(*index)), expr.span);
    }
    case py::NodeKind::kBinOp: return EvalBinOp(expr.Cast<py::BinOp>());
    case py::NodeKind::kUnaryOp: return EvalUnaryOp(expr.Cast<py::UnaryOp>());
    case py::NodeKind::kCompare: return EvalCompare(expr.Cast<py::Compare>());
    case py::NodeKind::kBoolOp:
      Fail(expr.span, "'and' / 'or' are not defined on Relax values; use R.logical_and / R.logical_or");
    default: break;
  }
  Fail(expr.span, fmt::format("expected a Relax expression, got {}", Describe(expr)));
}

// `metadata["relax.expr.Constant"][i]`; nullopt when `sub` is not of that
// form (or `metadata` names a variable).
std::optional<Expr> RelaxParser::MetadataEntry(const py::Subscript& sub) {
  const auto* inner = sub.value->As<py::Subscript>();
  const auto* name = inner ? inner->value->As<py::Name>() : nullptr;
  if (name == nullptr || name->id != "metadata" || scopes_.Lookup("metadata")) return std::nullopt;
  if (!mod_.metadata) Fail(sub.span, "metadata[...] is used but the file has no `metadata = tvm.ir.load_json(...)` header");
  std::optional<std::string> key = AsStringLiteral(*inner->index);
  std::optional<int64_t> index = AsIntLiteral(*sub.index);
  if (!key || !index) Fail(sub.span, "expected metadata[\"type_key\"][index]");
  auto it = mod_.metadata->entries.find(*key);
  if (it == mod_.metadata->entries.end() || *index < 0 || *index >= static_cast<int64_t>(it->second.size())) {
    Fail(sub.span, fmt::format("the metadata has no entry {}[{}]", *key, *index));
  }
  const ObjectRef& entry = it->second[static_cast<size_t>(*index)];
  if (!entry.defined()) Fail(sub.span, fmt::format("metadata entries of kind '{}' are not supported", *key));
  return cast<graph::ExprNode>(entry);
}

Expr RelaxParser::EvalName(const py::Name& name) {
  const Symbol* symbol = scopes_.Lookup(name.id);
  if (symbol == nullptr) {
    if (scopes_.hidden_dataflow_vars.count(name.id)) {
      Fail(name.span, fmt::format("'{}' is a dataflow variable that is not visible outside its dataflow block; "
                                  "list it in R.output(...)", name.id));
    }
    if (mod_.class_name.empty() && mod_.HasFunction(name.id)) return mod_.GlobalFor(name.id, name.span);
    Fail(name.span, fmt::format("undefined variable '{}'", name.id));
  }
  switch (symbol->kind) {
    case SymbolKind::kRelaxVar: return symbol->relax_var;
    case SymbolKind::kPrimVar: {
      CheckDefined(symbol->prim_var, name.span);
      return WithExprSpan(new graph::PrimValueNode(symbol->prim_var), name.span);
    }
    case SymbolKind::kModule:
      Fail(name.span, fmt::format("'{}' is the module; refer to its functions as {}.f", name.id, name.id));
    case SymbolKind::kBuffer:
    case SymbolKind::kMetaValue: break;
  }
  Fail(name.span, fmt::format("'{}' is not a Relax value", name.id));
}

std::optional<std::string> RelaxParser::ModuleFunctionName(const py::Expr& expr) {
  const auto* attr = expr.As<py::Attribute>();
  if (attr == nullptr) return std::nullopt;
  const auto* base = attr->value->As<py::Name>();
  if (base == nullptr) return std::nullopt;
  const Symbol* symbol = scopes_.Lookup(base->id);
  bool is_module = (symbol && symbol->kind == SymbolKind::kModule) ||
                   (!symbol && !mod_.class_name.empty() && base->id == mod_.class_name);
  if (!is_module) return std::nullopt;
  return attr->attr;
}

Expr RelaxParser::EvalAttribute(const py::Attribute& attr) {
  if (std::optional<std::string> name = ModuleFunctionName(attr)) return mod_.GlobalFor(*name, attr.span);
  if (const auto* base = attr.value->As<py::Name>(); base && base->id == "cls") {
    Fail(attr.value->span, "'cls' is not defined; add `cls = " +
                               (mod_.class_name.empty() ? std::string("Module") : mod_.class_name) + "` first");
  }
  Fail(attr.span, fmt::format("expected a Relax expression, got {}", Describe(attr)));
}

Expr RelaxParser::MakeCall(Expr op, std::vector<Expr> args, ir::Dict attrs, std::vector<StructInfo> sinfo_args,
                           const Span& span) {
  if (attrs.defined() && attrs->items.empty()) attrs = nullptr;
  return WithExprSpan(new graph::CallNode(std::move(op), std::move(args), std::move(attrs), std::move(sinfo_args)),
                      span);
}

Expr RelaxParser::MakeOpCall(const std::string& script_name, std::vector<Expr> args, const Span& span) {
  const graph::OpInfo* info = graph::FindOpByScriptName(script_name);
  if (info == nullptr) Fail(span, fmt::format("unknown operator '{}'", script_name));
  ir::Dict attrs;
  for (const graph::AttrSpec& spec : info->attrs) {
    if (spec.default_value.defined()) attrs = ir::DictWith(attrs, spec.name, spec.default_value);
  }
  return MakeCall(graph::GetOp(info->name), std::move(args), attrs, {}, span);
}

Expr RelaxParser::EvalCallee(const py::Expr& expr) {
  if (std::optional<std::string> symbol = AsStringLiteral(expr)) {
    return WithExprSpan(new graph::ExternFuncNode(*symbol), expr.span);
  }
  return EvalExpr(expr);
}

Expr RelaxParser::EvalCall(const py::Call& call) {
  std::string callee = CalleeName(call);
  // The one argument of a single-parameter builtin (an AST node, so the
  // reference outlives the CallArgs).
  auto single_arg = [&](const char* param) -> const py::Expr& {
    CallArgs args(call, callee, {param}, 1);
    return args.Required(param);
  };
  if (callee == "R.call_tir" || callee == "R.call_tir_inplace" || callee == "R.call_dps_packed" ||
      callee == "R.call_tir_with_grad") {
    return EvalCallTIR(call, callee);
  }
  if (callee == "R.call_packed") return EvalCallPacked(call);
  if (callee == "R.const") return EvalConst(call);
  if (callee == "R.shape") {
    const py::Expr& values = single_arg("values");
    return WithExprSpan(new graph::ShapeExprNode(EvalDims(values, DimMode::kUse)), call.span);
  }
  if (callee == "R.prim_value") {
    ir::PrimExpr value = prim_.Eval(single_arg("value"));
    CheckDefined(value, call.span);
    return WithExprSpan(new graph::PrimValueNode(value), call.span);
  }
  if (callee == "R.str" || callee == "R.ExternFunc") {
    const py::Expr& arg = single_arg(callee == "R.str" ? "value" : "global_symbol");
    std::optional<std::string> text = AsStringLiteral(arg);
    if (!text) Fail(arg.span, fmt::format("{} expects a string, got {}", callee, Describe(arg)));
    if (callee == "R.str") return WithExprSpan(new graph::StringImmNode(*text), call.span);
    return WithExprSpan(new graph::ExternFuncNode(*text), call.span);
  }
  if (callee == "R.dtype") {
    return WithExprSpan(new graph::DataTypeImmNode(EvalDType(single_arg("dtype"))), call.span);
  }
  if (callee == "R.TupleGetItem") {
    CallArgs args(call, callee, {"tuple_value", "index"}, 2);
    std::optional<int64_t> index = AsIntLiteral(args.Required("index"));
    if (!index || *index < 0) Fail(args.Required("index").span, "a tuple index must be a non-negative integer literal");
    Expr tuple = EvalExpr(args.Required("tuple_value"));
    return WithExprSpan(new graph::TupleGetItemNode(tuple, static_cast<int>(*index)), call.span);
  }
  if (callee == "R.tuple") {
    std::vector<Expr> fields;
    for (const py::ExprPtr& arg : call.args) fields.push_back(EvalExpr(*arg));
    return WithExprSpan(new graph::TupleNode(std::move(fields)), call.span);
  }
  if (callee == "I.Op") {
    const py::Expr& arg = single_arg("name");
    std::optional<std::string> name = AsStringLiteral(arg);
    if (!name || !graph::FindOp(*name)) Fail(arg.span, fmt::format("unknown operator {}", Describe(arg)));
    return graph::GetOp(*name);
  }
  if (callee == "R.match_cast") Fail(call.span, "R.match_cast must be the whole right-hand side of an assignment");
  if (callee == "R.output" || callee == "R.func_attr" || callee == "R.dataflow") {
    Fail(call.span, fmt::format("{} is a statement, not an expression", callee));
  }
  if (std::optional<std::string> name = ModuleFunctionName(*call.func)) {
    return EvalFunctionCall(call, mod_.GlobalFor(*name, call.func->span));
  }
  if (const auto* method = call.func->As<py::Attribute>(); method && method->attr == "astype" && !callee.empty() &&
      callee.rfind("R.", 0) != 0) {
    return EvalAstypeMethod(call, *method);
  }
  if (callee.rfind("R.", 0) == 0) {
    const graph::OpInfo* info = graph::FindOpByScriptName(callee);
    if (info == nullptr) Fail(call.func->span, fmt::format("unknown operator '{}'", callee));
    return EvalOperator(call, *info);
  }
  if (call.func->Is<py::Name>()) return EvalFunctionCall(call, EvalExpr(*call.func));
  Fail(call.func->span, fmt::format("cannot call {}", callee.empty() ? "this expression" : callee));
}

// `x.astype("float16")`: TVM's method spelling of R.astype(x, "float16").
Expr RelaxParser::EvalAstypeMethod(const py::Call& call, const py::Attribute& method) {
  const graph::OpInfo* info = graph::FindOpByScriptName("R.astype");
  if (info == nullptr || info->attrs.empty()) Fail(call.func->span, "unknown operator 'R.astype'");
  CallArgs args(call, "astype", {"dtype"}, 1);
  Expr value = EvalExpr(*method.value);
  ir::Dict attrs = ir::DictWith(ir::Dict(), info->attrs[0].name, EvalOpAttr(args.Required("dtype"), info->attrs[0], *info));
  return MakeCall(graph::GetOp(info->name), {value}, attrs, {}, call.span);
}

Expr RelaxParser::EvalFunctionCall(const py::Call& call, Expr callee) {
  if (!call.keywords.empty()) Fail(call.keywords[0].span, "calls of functions take no keyword arguments");
  std::vector<Expr> args;
  for (const py::ExprPtr& arg : call.args) args.push_back(EvalExpr(*arg));
  return MakeCall(std::move(callee), std::move(args), nullptr, {}, call.span);
}

Expr RelaxParser::EvalOpArg(const py::Expr& arg, const graph::OpInfo& info, size_t index) {
  std::string name = index < info.args.size() ? info.args[index] : "";
  if (name == "shape" && AsSequence(arg)) {
    return WithExprSpan(new graph::ShapeExprNode(EvalDims(arg, DimMode::kUse)), arg.span);
  }
  if (name == "func") return EvalCallee(arg);
  // A dtype argument (not attribute) of the memory operators may be a plain
  // string, which TVM's Python wrappers turn into R.dtype(...).
  if (name == "dtype" && AsStringLiteral(arg)) {
    return WithExprSpan(new graph::DataTypeImmNode(EvalDType(arg)), arg.span);
  }
  return EvalExpr(arg);
}

ObjectRef RelaxParser::EvalOpAttr(const py::Expr& value, const graph::AttrSpec& spec, const graph::OpInfo& info) {
  using graph::AttrKind;
  auto fail = [&](const char* expected) {
    return CompileError(value.span, fmt::format("{}: '{}' expects {}, got {}", info.script_name, spec.name, expected,
                                                Describe(value)));
  };
  switch (spec.kind) {
    case AttrKind::kInt:
    case AttrKind::kOptionalInt:
      if (std::optional<int64_t> i = AsIntLiteral(value)) return ir::MakeInt(*i);
      throw fail("an integer");
    case AttrKind::kIntList:
    case AttrKind::kOptionalIntList: {
      std::vector<ObjectRef> items;
      if (std::optional<int64_t> i = AsIntLiteral(value)) {
        items.push_back(ir::MakeInt(*i));
      } else if (const std::vector<py::ExprPtr>* elts = AsSequence(value)) {
        for (const py::ExprPtr& elt : *elts) {
          std::optional<int64_t> i = AsIntLiteral(*elt);
          if (!i) throw fail("a list of integers");
          items.push_back(ir::MakeInt(*i));
        }
      } else {
        throw fail("a list of integers");
      }
      return make<ir::ArrayNode>(std::move(items));
    }
    case AttrKind::kFloat:
      if (const py::Constant* c = AsConstant(value, py::ConstantKind::kFloat)) return ir::MakeFloat(c->float_value, DataType::Float(64));
      if (std::optional<int64_t> i = AsIntLiteral(value)) return ir::MakeFloat(static_cast<double>(*i), DataType::Float(64));
      return EvalAttrValue(value, AttrLevel::kRelax, &prim_);
    case AttrKind::kBool:
      if (std::optional<bool> b = AsBoolLiteral(value)) return ir::MakeBool(*b);
      throw fail("True or False");
    case AttrKind::kString:
    case AttrKind::kOptionalString:
      if (std::optional<std::string> s = AsStringLiteral(value)) return ir::MakeString(*s);
      throw fail("a string");
    case AttrKind::kDataType: {
      DataType dtype = EvalDType(value);
      return ir::MakeString(dtype.is_void() ? "void" : dtype.ToString());
    }
    case AttrKind::kPrimExprList: {
      std::vector<ObjectRef> items;
      for (const ir::PrimExpr& dim : EvalDims(value, DimMode::kUse)) items.push_back(dim);
      return make<ir::ArrayNode>(std::move(items));
    }
    case AttrKind::kIndexMap: return EvalIndexMap(value, info);
    case AttrKind::kOptionalPrimValue: {
      Expr prim_value = EvalExpr(value);
      if (!prim_value.isa<graph::PrimValueNode>()) throw fail("R.prim_value(...) or None");
      return prim_value;
    }
    case AttrKind::kAny:
    case AttrKind::kOptionalAny: break;
  }
  return EvalAttrValue(value, AttrLevel::kRelax, &prim_);
}

// `T.index_map(lambda i, j: (i // 4, j))`: the parameters become fresh
// int64 Vars, visible only in the lambda's body; the value is an Array of the
// Vars and an Array of the results.
ObjectRef RelaxParser::EvalIndexMap(const py::Expr& value, const graph::OpInfo& info) {
  const auto* call = value.As<py::Call>();
  const py::Lambda* lambda = nullptr;
  if (call != nullptr && CalleeName(*call) == "T.index_map" && call->args.size() == 1 && call->keywords.empty()) {
    lambda = call->args[0]->As<py::Lambda>();
  }
  if (lambda == nullptr) {
    Fail(value.span, fmt::format("{}: 'index_map' expects T.index_map(lambda ...: (...)), got {}", info.script_name,
                                 Describe(value)));
  }
  scopes_.Push();
  std::vector<ObjectRef> params;
  for (const py::Param& param : lambda->params) {
    if (param.kind != py::ParamKind::kRegular || param.default_value) {
      scopes_.Pop();
      Fail(param.span, "index_map parameters must be plain names");
    }
    ir::Var var = ir::MakeVar(param.name);
    scopes_.DefinePrimVar(param.name, var);
    params.push_back(var);
  }
  std::vector<ObjectRef> results;
  try {
    for (const ir::PrimExpr& result : prim_.EvalList(*lambda->body)) results.push_back(result);
  } catch (...) {
    scopes_.Pop();
    throw;
  }
  scopes_.Pop();
  return make<ir::ArrayNode>(std::vector<ObjectRef>{make<ir::ArrayNode>(std::move(params)),
                                                    make<ir::ArrayNode>(std::move(results))});
}

namespace {

// An argument that TVM's Python wrapper of an operator defaults while the
// operator itself has none: R.builtin.alloc_tensor(shape, dtype,
// runtime_device_index, storage_scope="global"). Undefined when none.
Expr PythonWrapperDefault(const graph::OpInfo& info, const std::string& arg) {
  if (info.name == "relax.builtin.alloc_tensor" && arg == "storage_scope") return make<graph::StringImmNode>("global");
  return Expr();
}

}  // namespace

Expr RelaxParser::EvalOperator(const py::Call& call, const graph::OpInfo& info) {
  size_t num_args = info.args.size();
  std::vector<Expr> args(info.variadic_args ? 0 : num_args);
  std::vector<bool> given(args.size(), false);
  std::map<std::string, ObjectRef> attr_values;
  std::set<std::string> attr_given;
  std::vector<StructInfo> sinfo_args;
  auto set_attr = [&](const graph::AttrSpec& spec, const py::Expr& value) {
    attr_given.insert(spec.name);
    if (!IsNone(&value)) attr_values[spec.name] = EvalOpAttr(value, spec, info);
  };
  for (size_t i = 0; i < call.args.size(); ++i) {
    const py::Expr& arg = *call.args[i];
    if (arg.Is<py::Starred>()) Fail(arg.span, "*arguments are not supported");
    if (info.variadic_args) {
      args.push_back(EvalOpArg(arg, info, i));
    } else if (i < num_args) {
      args[i] = EvalOpArg(arg, info, i);
      given[i] = true;
    } else if (i - num_args < info.attrs.size()) {
      set_attr(info.attrs[i - num_args], arg);
    } else {
      Fail(arg.span, fmt::format("{} takes {} argument{} ({}), got {}", info.script_name, num_args,
                                 num_args == 1 ? "" : "s", OpArgList(info), call.args.size()));
    }
  }
  for (const py::Keyword& keyword : call.keywords) {
    if (keyword.name == "sinfo_args" || keyword.name == "ty_args") {  // ty_args: TVM's newer name
      sinfo_args = EvalSInfoList(*keyword.value, DimMode::kUse);
      continue;
    }
    auto arg_it = std::find(info.args.begin(), info.args.end(), keyword.name);
    if (arg_it != info.args.end() && !info.variadic_args) {
      size_t index = static_cast<size_t>(arg_it - info.args.begin());
      if (given[index]) Fail(keyword.name_span, fmt::format("{} got multiple values for '{}'", info.script_name, keyword.name));
      args[index] = EvalOpArg(*keyword.value, info, index);
      given[index] = true;
      continue;
    }
    auto spec = std::find_if(info.attrs.begin(), info.attrs.end(),
                             [&](const graph::AttrSpec& s) { return s.name == keyword.name; });
    if (spec == info.attrs.end()) {
      std::vector<std::string> names;
      for (const graph::AttrSpec& s : info.attrs) names.push_back(s.name);
      if (names.empty()) names = info.args;
      Fail(keyword.name_span, fmt::format("{} has no argument '{}'; expected one of: {}", info.script_name,
                                          keyword.name, fmt::join(names, ", ")));
    }
    if (attr_given.count(spec->name)) Fail(keyword.name_span, fmt::format("{} got multiple values for '{}'", info.script_name, keyword.name));
    set_attr(*spec, *keyword.value);
  }
  for (size_t i = 0; i < given.size(); ++i) {
    if (!given[i] && (args[i] = PythonWrapperDefault(info, info.args[i])).defined()) given[i] = true;
    if (!given[i]) {
      Fail(call.span, fmt::format("{} takes {} argument{} ({}), got {}", info.script_name, num_args,
                                  num_args == 1 ? "" : "s", OpArgList(info), call.args.size()));
    }
  }
  ir::Dict attrs;
  for (const graph::AttrSpec& spec : info.attrs) {
    auto it = attr_values.find(spec.name);
    if (it != attr_values.end()) {
      attrs = ir::DictWith(attrs, spec.name, it->second);
    } else if (!attr_given.count(spec.name) && spec.default_value.defined()) {
      attrs = ir::DictWith(attrs, spec.name, spec.default_value);
    } else if (!attr_given.count(spec.name) && !graph::IsOptionalAttrKind(spec.kind)) {
      Fail(call.span, fmt::format("{}: missing required argument '{}'", info.script_name, spec.name));
    }
  }
  return MakeCall(graph::GetOp(info.name), std::move(args), attrs, std::move(sinfo_args), call.span);
}

// The argument tuple of a destination-passing call. As in TVM, a single
// tensor stands for a one-element tuple; anything else must be a tuple.
Expr RelaxParser::EvalTupleArgs(const py::Expr& expr, const std::string& what) {
  if (AsSequence(expr)) return EvalExpr(expr);
  Expr value = EvalExpr(expr);
  if (value.isa<graph::TupleNode>()) return value;
  if (!value->struct_info.defined()) value = bb_->Normalize(value);
  StructInfo sinfo = value->struct_info;
  if (sinfo.isa<graph::TupleStructInfoNode>()) return value;
  if (sinfo.isa<graph::TensorStructInfoNode>()) {
    return WithExprSpan(new graph::TupleNode({value}), expr.span);
  }
  Fail(expr.span, fmt::format("{}: expected the arguments as a tuple of tensors, e.g. (x,), got {} of {}", what,
                              Describe(expr), graph::ToString(sinfo)));
}

Expr RelaxParser::EvalCallTIR(const py::Call& call, const std::string& name) {
  bool inplace = name == "R.call_tir_inplace";
  bool packed = name == "R.call_dps_packed";
  bool with_grad = name == "R.call_tir_with_grad";
  // TVM's positional orders: call_tir(gvar, args, out_sinfo, tir_vars),
  // call_tir_inplace(gvar, args, inplace_indices, out_sinfo, tir_vars),
  // call_dps_packed(func, args, out_sinfo).
  std::vector<std::string> params = {packed ? "func" : "gvar", "args"};
  if (inplace) params.push_back("inplace_indices");
  params.push_back("out_sinfo");
  if (with_grad) {  // call_tir_with_grad(gvar, args, out_sinfo, te_grad_name, te_grad_kwargs, tir_vars)
    params.push_back("te_grad_name");
    params.push_back("te_grad_kwargs");
  }
  if (!packed) params.push_back("tir_vars");
  params.push_back("out_ty");
  CallArgs args(call, name, params, 2);
  Expr callee = packed ? EvalCallee(args.Required(params[0])) : EvalExpr(args.Required("gvar"));
  Expr arguments = EvalTupleArgs(args.Required("args"), name);
  const py::Expr* out = args.Get("out_sinfo") ? args.Get("out_sinfo") : args.Get("out_ty");
  if (out == nullptr) Fail(call.span, fmt::format("{} needs out_sinfo= (the struct info of its output)", name));
  std::vector<StructInfo> outs = EvalSInfoList(*out, DimMode::kUse);
  StructInfo out_sinfo = outs.size() == 1 ? outs[0] : graph::TupleSInfo(outs);
  std::vector<Expr> call_args = {callee, arguments};
  if (args.Has("tir_vars")) {
    const py::Expr& tir_vars = args.Required("tir_vars");
    if (AsSequence(tir_vars)) {
      call_args.push_back(WithExprSpan(new graph::ShapeExprNode(EvalDims(tir_vars, DimMode::kUse)), tir_vars.span));
    } else {
      call_args.push_back(EvalExpr(tir_vars));
    }
  }
  ir::Dict attrs;
  if (inplace) {
    const graph::OpInfo* info = graph::FindOp("relax.call_tir_inplace");
    const py::Expr& indices = args.Required("inplace_indices");
    attrs = ir::DictWith(attrs, "inplace_indices", EvalOpAttr(indices, info->attrs[0], *info));
  }
  if (with_grad) {
    const py::Expr& grad_name = args.Required("te_grad_name");
    if (!AsStringLiteral(grad_name)) Fail(grad_name.span, "R.call_tir_with_grad: te_grad_name must be a string");
    attrs = ir::DictWith(attrs, "te_grad_name", ir::MakeString(*AsStringLiteral(grad_name)));
    ir::Dict kwargs = args.Has("te_grad_kwargs") ? EvalAttrDict(args.Required("te_grad_kwargs"), AttrLevel::kRelax, &prim_)
                                                 : ir::Dict(make<ir::DictNode>());
    attrs = ir::DictWith(attrs, "te_grad_kwargs", kwargs);
  }
  std::string op_name = "relax." + name.substr(2);
  return MakeCall(graph::GetOp(op_name), std::move(call_args), attrs, {out_sinfo}, call.span);
}

Expr RelaxParser::EvalCallPacked(const py::Call& call) {
  if (call.args.empty()) Fail(call.span, "R.call_packed needs the function name as its first argument");
  std::optional<std::string> symbol = AsStringLiteral(*call.args[0]);
  if (!symbol) Fail(call.args[0]->span, "R.call_packed expects the function name as a string");
  std::vector<Expr> args;
  for (size_t i = 1; i < call.args.size(); ++i) args.push_back(EvalExpr(*call.args[i]));
  ir::Dict attrs;
  std::vector<StructInfo> sinfo_args;
  for (const py::Keyword& keyword : call.keywords) {
    if (keyword.name == "sinfo_args" || keyword.name == "ty_args") {  // ty_args: TVM's newer name
      sinfo_args = EvalSInfoList(*keyword.value, DimMode::kUse);
    } else {
      ObjectRef value = EvalAttrValue(*keyword.value, AttrLevel::kRelax, &prim_);
      if (value.defined()) attrs = ir::DictWith(attrs, keyword.name, value);
    }
  }
  Expr callee = WithExprSpan(new graph::ExternFuncNode(*symbol), call.args[0]->span);
  return MakeCall(callee, std::move(args), attrs, std::move(sinfo_args), call.span);
}

Expr RelaxParser::EvalConst(const py::Call& call) {
  CallArgs args(call, "R.const", {"value", "dtype"}, 1);
  std::vector<int64_t> shape;
  std::vector<ConstElement> elements;
  CollectConst(args.Required("value"), 0, &shape, &elements);
  DataType dtype;
  if (args.Has("dtype")) {
    dtype = EvalDType(args.Required("dtype"));
    if (dtype.is_void()) Fail(args.Required("dtype").span, "R.const needs a known dtype");
  } else {
    bool any_float = false, all_bool = !elements.empty();
    for (const ConstElement& e : elements) {
      any_float |= e.is_float;
      all_bool &= e.is_bool;
    }
    dtype = any_float ? DataType::Float32() : all_bool ? DataType::Bool() : DataType::Int32();
  }
  auto data = std::make_shared<graph::TensorData>();
  data->dtype = dtype;
  data->shape = shape;
  for (const ConstElement& e : elements) Encode(e, dtype, &data->bytes);
  return WithExprSpan(new graph::ConstantNode(data), call.span);
}

// ---------------------------------------------------------------------------
// Operators on Relax values.

Expr RelaxParser::EvalBinOp(const py::BinOp& op) {
  static const std::unordered_map<int, const char*> kOps = {
      {static_cast<int>(py::BinOpKind::kAdd), "R.add"},
      {static_cast<int>(py::BinOpKind::kSub), "R.subtract"},
      {static_cast<int>(py::BinOpKind::kMult), "R.multiply"},
      {static_cast<int>(py::BinOpKind::kDiv), "R.divide"},
      {static_cast<int>(py::BinOpKind::kFloorDiv), "R.floor_divide"},
      {static_cast<int>(py::BinOpKind::kMod), "R.floor_mod"},
      {static_cast<int>(py::BinOpKind::kPow), "R.power"},
      {static_cast<int>(py::BinOpKind::kMatMult), "R.matmul"}};
  auto it = kOps.find(static_cast<int>(op.op));
  if (it == kOps.end()) Fail(op.span, fmt::format("operator '{}' is not defined on Relax values", py::Spelling(op.op)));
  Expr lhs = EvalExpr(*op.left);
  Expr rhs = EvalExpr(*op.right);
  // Arithmetic on scalars (`N % 16` with N symbolic) is a scalar expression
  // wrapped as a PrimValue, as TVM's parser does.
  if (lhs.isa<graph::PrimValueNode>() && rhs.isa<graph::PrimValueNode>()) {
    return WithExprSpan(new graph::PrimValueNode(PrimOfValues(op)), op.span);
  }
  return MakeOpCall(it->second, {lhs, rhs}, op.span);
}

// A scalar expression over symbolic variables and literals, checked to use
// only defined variables.
ir::PrimExpr RelaxParser::PrimOfValues(const py::Expr& expr) {
  ir::PrimExpr value = prim_.Eval(expr);
  CheckDefined(value, expr.span);
  return value;
}

Expr RelaxParser::EvalUnaryOp(const py::UnaryOp& op) {
  Expr operand = EvalExpr(*op.operand);
  switch (op.op) {
    case py::UnaryOpKind::kUAdd: return operand;
    case py::UnaryOpKind::kUSub:
      if (operand.isa<graph::PrimValueNode>()) {
        return WithExprSpan(new graph::PrimValueNode(prim_.Eval(op)), op.span);
      }
      return MakeOpCall("R.negative", {operand}, op.span);
    case py::UnaryOpKind::kNot: return MakeOpCall("R.logical_not", {operand}, op.span);
    case py::UnaryOpKind::kInvert: break;
  }
  Fail(op.span, "operator '~' is not defined on Relax values");
}

Expr RelaxParser::EvalCompare(const py::Compare& cmp) {
  if (cmp.ops.size() != 1) Fail(cmp.span, "chained comparisons are not supported on Relax values");
  static const std::unordered_map<int, const char*> kOps = {
      {static_cast<int>(py::CmpOpKind::kEq), "R.equal"},     {static_cast<int>(py::CmpOpKind::kNotEq), "R.not_equal"},
      {static_cast<int>(py::CmpOpKind::kLt), "R.less"},      {static_cast<int>(py::CmpOpKind::kLtE), "R.less_equal"},
      {static_cast<int>(py::CmpOpKind::kGt), "R.greater"},   {static_cast<int>(py::CmpOpKind::kGtE), "R.greater_equal"}};
  auto it = kOps.find(static_cast<int>(cmp.ops[0]));
  if (it == kOps.end()) {
    Fail(cmp.span, fmt::format("comparison '{}' is not defined on Relax values", py::Spelling(cmp.ops[0])));
  }
  Expr lhs = EvalExpr(*cmp.left);
  Expr rhs = EvalExpr(*cmp.comparators[0]);
  if (lhs.isa<graph::PrimValueNode>() && rhs.isa<graph::PrimValueNode>()) {
    return WithExprSpan(new graph::PrimValueNode(PrimOfValues(cmp)), cmp.span);
  }
  return MakeOpCall(it->second, {lhs, rhs}, cmp.span);
}

}  // namespace rlx::text::detail
