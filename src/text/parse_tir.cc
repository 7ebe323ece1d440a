// PrimFunc parsing: parameters, buffers and plain statements (see
// tir_parser.h for the statement model; loops and scoped statements are in
// parse_tir_scope.cc).
//
// Follows TVM's TIR script parser (python/tvm/script/parser/tir/parser.py
// and ir_builder/tir):
// - Parameters: `A: T.Buffer((2, 3), "float32")` (or `T.Buffer[(2, 3),
//   "float32"]`) is a handle parameter bound to a buffer; `a: T.handle` is
//   matched later by `A = T.match_buffer(a, (n, 4), "float32")`; `n: T.int32`
//   is a scalar. A bare undefined name in a parameter's or match_buffer's
//   shape defines a new int32 variable there (its first appearance).
// - A public function gets the attribute global_symbol = its name (TVM
//   adds it; the printer leaves it out again).
// - `x = value` binds a LetStmt over the rest of the body unless value
//   creates something (`T.int64()` declares a variable, `T.match_buffer`,
//   `T.alloc_buffer`, `T.Buffer`, `T.axis.*` define their targets).
// - A buffer store of a value of another dtype converts the value to the
//   buffer's dtype (TVM inserts the cast).
#include <fmt/format.h>

#include "rlx/arith/analyzer.h"
#include "text/tir_parser.h"

namespace rlx::text::detail {

using ir::PrimExpr;


TIRParser::TIRParser(const ModuleContext& mod, const py::FunctionDef& def)
    : mod_(mod), def_(def), prim_(scopes_, PrimExprParser::Options{}) {}

ir::Var TIRParser::NewVar(const std::string& name, DataType dtype, const Span& span) {
  ir::Var var = ir::MakeVar(name, dtype);
  const_cast<ir::VarNode*>(var.get())->span = span;
  return var;
}

// Reads `expr`; an undefined bare name becomes a new int32 variable (a
// buffer dimension's first appearance).
PrimExpr TIRParser::EvalDefining(const py::Expr& expr) {
  auto saved = prim_.options().on_undefined;
  prim_.options().on_undefined = [this](const py::Name& name) {
    ir::Var var = NewVar(name.id, DataType::Int32(), name.span);
    scopes_.DefinePrimVar(name.id, var);
    return var;
  };
  try {
    PrimExpr result = prim_.Eval(expr);
    prim_.options().on_undefined = saved;
    return result;
  } catch (...) {
    prim_.options().on_undefined = saved;
    throw;
  }
}

// ---------------------------------------------------------------------------
// Buffers.

TIRParser::Kwargs TIRParser::BufferKwargs(const CallArgs& args) {
  Kwargs kwargs;
  for (const char* key : {"shape", "dtype", "data", "strides", "elem_offset", "scope", "align", "offset_factor"}) {
    if (const py::Expr* value = args.Get(key); value != nullptr && !IsNone(value)) kwargs[key] = value;
  }
  return kwargs;
}

ir::Buffer TIRParser::MakeBuffer(const Kwargs& args, const std::string& name, bool define_new_dims, const Span& span) {
  auto eval = [&](const py::Expr& e) { return define_new_dims ? EvalDefining(e) : prim_.Eval(e); };
  auto get = [&](const char* key) -> const py::Expr* {
    auto it = args.find(key);
    return it == args.end() ? nullptr : it->second;
  };
  const py::Expr* shape_expr = get("shape");
  if (shape_expr == nullptr) Fail(span, "a buffer needs a shape");
  std::vector<PrimExpr> shape;
  const std::vector<py::ExprPtr>* dims = AsSequence(*shape_expr);
  if (dims == nullptr && (shape_expr->Is<py::Constant>() && !AsIntLiteral(*shape_expr))) {
    Fail(shape_expr->span, fmt::format("expected a buffer shape such as (2, 3), got {}", Describe(*shape_expr)));
  }
  if (dims != nullptr) {
    for (const py::ExprPtr& dim : *dims) shape.push_back(eval(*dim));
  } else {
    shape.push_back(eval(*shape_expr));
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!shape[d]->dtype.is_integer()) {
      const py::Expr& where = dims ? *(*dims)[d] : *shape_expr;
      Fail(where.span, fmt::format("buffer dimensions must be integers, got a value of type {}",
                                   shape[d]->dtype.is_void() ? "void" : shape[d]->dtype.ToString()));
    }
  }
  DataType dtype = get("dtype") ? EvalDType(*get("dtype")) : DataType::Float32();
  if (dtype.is_void()) Fail(get("dtype")->span, "a buffer needs a known dtype");
  std::string scope = "global";
  if (const py::Expr* s = get("scope")) {
    std::optional<std::string> text = AsStringLiteral(*s);
    if (!text) Fail(s->span, "scope must be a string such as \"global\" or \"shared\"");
    scope = *text;
  }
  ir::Buffer buffer = ir::MakeBuffer(name, shape, dtype, scope);
  auto* node = const_cast<ir::BufferNode*>(buffer.get());
  node->span = span;
  if (const py::Expr* data = get("data")) {
    PrimExpr value = prim_.Eval(*data);
    if (!value.isa<ir::VarNode>() || !value->dtype.is_handle()) {
      Fail(data->span, "data= must be a handle variable (e.g. A.data)");
    }
    node->data = cast<ir::VarNode>(value);
  }
  if (const py::Expr* strides = get("strides")) {
    const std::vector<py::ExprPtr>* elts = AsSequence(*strides);
    if (elts == nullptr) Fail(strides->span, "strides must be a tuple");
    for (const py::ExprPtr& stride : *elts) node->strides.push_back(eval(*stride));
  }
  if (const py::Expr* factor = get("offset_factor")) {
    std::optional<int64_t> value = AsIntLiteral(*factor);
    if (!value || *value < 0) Fail(factor->span, "offset_factor must be a non-negative integer");
    node->offset_factor = static_cast<int>(*value);
  }
  if (const py::Expr* offset = get("elem_offset")) {
    node->elem_offset = eval(*offset);
  } else if (node->offset_factor > 0) {
    DataType index_type = shape.empty() ? DataType::Int32() : shape[0]->dtype;
    node->elem_offset = NewVar(name + "_elem_offset", index_type, span);
  }
  if (const py::Expr* align = get("align")) {
    std::optional<int64_t> value = AsIntLiteral(*align);
    if (!value) Fail(align->span, "align must be an integer");
    node->data_alignment = *value <= 0 ? -1 : static_cast<int>(*value);
  }
  return buffer;
}

// ---------------------------------------------------------------------------
// Parameters.

// The element type of `T.handle("float32")` (`T.handle("void")` is the
// untyped handle, as TVM); a storage scope (`T.handle("int32", "shared")`)
// has no representation here and is an error.
DataType TIRParser::HandlePointee(const py::Call& call) {
  CallArgs args(call, "T.handle", {"dtype", "storage_scope"}, 0);
  if (args.Has("storage_scope")) {
    std::optional<std::string> scope = AsStringLiteral(args.Required("storage_scope"));
    if (!scope || *scope != "global") {
      Fail(args.Required("storage_scope").span, "T.handle: pointers into a storage scope other than \"global\" are not supported");
    }
  }
  if (!args.Has("dtype")) return DataType();
  DataType pointee = EvalDType(args.Required("dtype"));
  return pointee.is_void() ? DataType() : pointee;
}

// `T.let[T.int32]` annotates a let binding like `T.int32` (TVM's spelling
// since v0.22): the subscript is unwrapped.
const py::Expr& TIRParser::UnwrapLetAnnotation(const py::Expr& annotation) {
  if (const auto* sub = annotation.As<py::Subscript>(); sub && DottedName(*sub->value) == std::optional<std::string>("T.let")) {
    return *sub->index;
  }
  return annotation;
}

std::optional<DataType> TIRParser::ScalarType(const py::Expr& annotation) {
  std::string name;
  const py::Call* call = annotation.As<py::Call>();
  if (call != nullptr) {
    name = CalleeName(*call);
  } else {
    name = DottedName(annotation).value_or("");
  }
  if (name.rfind("T.", 0) != 0) return std::nullopt;
  name = name.substr(2);
  if (name == "handle") {
    DataType handle = DataType::Handle();
    return handle;
  }
  if (name == "boolean") name = "bool";  // TVM's alias
  std::optional<DataType> dtype = DataType::Parse(name);
  if (!dtype) return std::nullopt;
  if (call != nullptr && (!call->args.empty() || !call->keywords.empty())) return std::nullopt;
  return dtype;
}

void TIRParser::ParseParams() {
  std::unordered_set<std::string> seen;
  for (const py::Param& param : def_.params) {
    if (param.kind != py::ParamKind::kRegular) Fail(param.span, "only plain parameters are supported");
    if (!seen.insert(param.name).second) Fail(param.name_span, fmt::format("duplicate parameter '{}'", param.name));
    if (param.annotation == nullptr) {
      Fail(param.span, fmt::format("parameter '{}' needs a type annotation (T.handle, T.Buffer(...), T.int32, ...)",
                                   param.name));
    }
    const py::Expr& ann = *param.annotation;
    const py::Call* call = ann.As<py::Call>();
    const auto* sub = ann.As<py::Subscript>();
    bool buffer_call = call != nullptr && CalleeName(*call) == "T.Buffer";
    bool buffer_sub = sub != nullptr && DottedName(*sub->value) == std::optional<std::string>("T.Buffer");
    if (buffer_call || buffer_sub) {
      Kwargs kwargs;
      if (buffer_call) {
        CallArgs args(*call, "T.Buffer", {"shape", "dtype", "data", "strides", "elem_offset", "scope", "align",
                                          "offset_factor", "buffer_type", "axis_separators"}, 1);
        kwargs = BufferKwargs(args);
      } else {
        const auto* index = sub->index->As<py::Tuple>();
        if (index == nullptr || index->parenthesized || index->elts.size() != 2) {
          Fail(sub->index->span, "expected T.Buffer[shape, dtype]");
        }
        kwargs["shape"] = index->elts[0].get();
        kwargs["dtype"] = index->elts[1].get();
      }
      ir::Buffer buffer = MakeBuffer(kwargs, param.name, /*define_new_dims=*/true, ann.span);
      ir::Var handle = NewVar(param.name, DataType::Handle(), param.name_span);
      params_.push_back(handle);
      buffer_map_.emplace_back(handle, buffer);
      scopes_.DefineBuffer(param.name, buffer);
      continue;
    }
    std::optional<DataType> dtype = ScalarType(ann);
    if (!dtype) {
      Fail(ann.span, fmt::format("expected a parameter type such as T.handle, T.Buffer((n, 4), \"float32\") or "
                                 "T.int32, got {}", Describe(ann)));
    }
    ir::Var var = NewVar(param.name, *dtype, param.name_span);
    if (call != nullptr && !call->args.empty()) {
      const_cast<ir::VarNode*>(var.get())->pointee = HandlePointee(*call);
    }
    params_.push_back(var);
    scopes_.DefinePrimVar(param.name, var);
  }
}

tir::PrimFunc TIRParser::Parse() {
  ParseParams();
  tir::Stmt body = ParseStmts(def_.body, 0);
  body = WrapRootBlock(body);
  auto* func = new tir::PrimFuncNode();
  func->params = params_;
  // buffer_map in parameter order.
  for (const ir::Var& param : params_) {
    for (const auto& entry : buffer_map_) {
      if (entry.first.same_as(param)) func->buffer_map.push_back(entry);
    }
  }
  func->body = body;
  func->is_private = DecoratorFlag(def_, "private", false);
  if (def_.returns && !IsNone(def_.returns.get())) {  // `-> None` is the void default
    std::optional<DataType> ret = ScalarType(*def_.returns);
    if (!ret) Fail(def_.returns->span, fmt::format("expected a return type such as T.int32, got {}", Describe(*def_.returns)));
    func->ret_type = *ret;
  }
  ir::Dict attrs = attrs_;
  if (!func->is_private && !(attrs.defined() && attrs->Contains("global_symbol"))) {
    attrs = ir::DictWith(attrs, "global_symbol", ir::MakeString(def_.name));
  }
  func->attrs = attrs;
  func->span = def_.span;
  return tir::PrimFunc(func);
}

// ---------------------------------------------------------------------------
// Statement lists.

tir::Stmt TIRParser::ParseStmts(const py::StmtList& stmts, size_t begin) {
  std::vector<tir::Stmt> out;
  for (size_t i = begin; i < stmts.size(); ++i) {
    bool consumed = WithSpan(stmts[i]->span, [&] { return ParseStmt(stmts, i, &out); });
    if (consumed) break;
  }
  return tir::MakeSeq(std::move(out));
}

tir::Stmt TIRParser::RestOrEmpty(const py::StmtList& stmts, size_t begin) {
  if (begin >= stmts.size()) return tir::Stmt();
  return ParseStmts(stmts, begin);
}

bool TIRParser::ParseStmt(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out) {
  const py::Stmt& stmt = *stmts[i];
  switch (stmt.kind) {
    case py::NodeKind::kExprStmt:
      if (IsCallTo(*stmt.Cast<py::ExprStmt>().value, "T.Bind")) return ParseExplicitBind(stmts, i, out);
      if (IsCallTo(*stmt.Cast<py::ExprStmt>().value, "T.attr") ||
          IsCallTo(*stmt.Cast<py::ExprStmt>().value, "T.launch_thread")) {
        const auto& call = stmt.Cast<py::ExprStmt>().value->Cast<py::Call>();
        out->push_back(ParseAttrCall(call, nullptr, [&] { return ParseStmts(stmts, i + 1); }));
        return true;
      }
      return ParseExprStmt(stmt.Cast<py::ExprStmt>(), out);
    case py::NodeKind::kAssign: return ParseAssign(stmts, i, out);
    case py::NodeKind::kAnnAssign: return ParseAnnAssign(stmts, i, out);
    case py::NodeKind::kAugAssign: out->push_back(ParseAugAssign(stmt.Cast<py::AugAssign>())); return false;
    case py::NodeKind::kFor: out->push_back(ParseFor(stmt.Cast<py::For>())); return false;
    case py::NodeKind::kIf: out->push_back(ParseIf(stmt.Cast<py::If>())); return false;
    case py::NodeKind::kWith: {
      tir::Stmt result = ParseWith(stmt.Cast<py::With>());
      if (result.defined()) out->push_back(result);
      return false;
    }
    case py::NodeKind::kAssert: out->push_back(ParseAssert(stmt.Cast<py::Assert>(), stmts, i)); return true;
    case py::NodeKind::kReturn: {
      const auto& ret = stmt.Cast<py::Return>();
      if (!ret.value) Fail(stmt.span, "a PrimFunc return needs a value");
      PrimExpr value = prim_.Eval(*ret.value);
      out->push_back(WithStmtSpan(new tir::EvaluateNode(ir::call(value->dtype, "ret", {value})), stmt.span));
      return false;
    }
    case py::NodeKind::kPass: return false;
    case py::NodeKind::kWhile: out->push_back(ParseWhile(stmt.Cast<py::While>())); return false;
    case py::NodeKind::kFunctionDef: Fail(stmt.span, "nested functions are not allowed in a PrimFunc");
    default: Fail(stmt.span, fmt::format("unsupported statement in a PrimFunc: {}", py::NodeKindName(stmt.kind)));
  }
}

bool TIRParser::ParseExprStmt(const py::ExprStmt& stmt, std::vector<tir::Stmt>* out) {
  const py::Expr& value = *stmt.value;
  if (AsStringLiteral(value)) return false;  // a docstring
  const auto* call = value.As<py::Call>();
  if (call != nullptr) {
    std::string name = CalleeName(*call);
    if (name == "T.func_attr") {
      CallArgs args(*call, name, {"attrs"}, 1);
      ir::Dict dict = EvalAttrDict(args.Required("attrs"), AttrLevel::kTIR, &prim_);
      for (const auto& [key, item] : dict->items) attrs_ = ir::DictWith(attrs_, key, item);
      return false;
    }
    if (ParseBlockFrameCall(*call)) return false;
    if (name == "T.evaluate") {
      CallArgs args(*call, name, {"value"}, 1);
      out->push_back(WithStmtSpan(new tir::EvaluateNode(prim_.Eval(args.Required("value"))), stmt.span));
      return false;
    }
  }
  if (call == nullptr) Fail(value.span, fmt::format("expected a statement, got {}", Describe(value)));
  out->push_back(WithStmtSpan(new tir::EvaluateNode(prim_.Eval(value)), stmt.span));
  return false;
}

// ---------------------------------------------------------------------------
// Assignments.

bool TIRParser::DeclareVars(const py::Expr& target, const py::Expr& value) {
  std::vector<const py::Expr*> targets, values;
  if (const auto* tuple = target.As<py::Tuple>()) {
    const std::vector<py::ExprPtr>* elts = AsSequence(value);
    if (elts == nullptr || elts->size() != tuple->elts.size()) return false;
    for (size_t k = 0; k < elts->size(); ++k) {
      targets.push_back(tuple->elts[k].get());
      values.push_back((*elts)[k].get());
    }
  } else {
    targets.push_back(&target);
    values.push_back(&value);
  }
  std::vector<std::pair<std::string, ir::Var>> declared;
  for (size_t k = 0; k < targets.size(); ++k) {
    const auto* call = values[k]->As<py::Call>();
    const auto* name = targets[k]->As<py::Name>();
    if (call == nullptr || name == nullptr) return false;
    std::string callee = CalleeName(*call);
    DataType dtype;
    DataType pointee;
    if (callee == "T.handle") {
      dtype = DataType::Handle();
      if (!call->args.empty()) pointee = HandlePointee(*call);
    } else if (std::optional<DataType> scalar = ScalarType(*values[k])) {
      dtype = *scalar;
    } else {
      return false;
    }
    ir::Var var = NewVar(name->id, dtype, name->span);
    const_cast<ir::VarNode*>(var.get())->pointee = pointee;
    declared.emplace_back(name->id, var);
  }
  for (auto& [name, var] : declared) scopes_.DefinePrimVar(name, var);
  return true;
}

bool TIRParser::ParseAssign(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out) {
  const auto& assign = stmts[i]->Cast<py::Assign>();
  if (const auto* sub = assign.target->As<py::Subscript>()) {
    out->push_back(ParseStore(*sub, prim_.Eval(*assign.value), assign.span));
    return false;
  }
  if (DeclareVars(*assign.target, *assign.value)) return false;
  if (const auto* tuple = assign.target->As<py::Tuple>()) {
    if (IsCallTo(*assign.value, "T.axis.remap")) {
      std::vector<const py::Expr*> targets;
      for (const py::ExprPtr& elt : tuple->elts) targets.push_back(elt.get());
      ParseRemap(targets, assign.value->Cast<py::Call>());
      return false;
    }
    Fail(assign.target->span, "only T.axis.remap(...) and variable declarations may assign several names");
  }
  return ParseNameAssign(assign, stmts, i, out);
}

bool TIRParser::ParseNameAssign(const py::Assign& assign, const py::StmtList& stmts, size_t i,
                                std::vector<tir::Stmt>* out) {
  const py::Name& target = TargetName(*assign.target, "this value");
  const auto* call = assign.value->As<py::Call>();
  std::string callee = call ? CalleeName(*call) : "";
  auto rest = [&] { return ParseStmts(stmts, i + 1); };
  if (callee == "T.match_buffer") {
    ParseMatchBuffer(*call, target.id, target.span);
    return false;
  }
  if (callee == "T.meta_var") {
    CallArgs args(*call, callee, {"value"}, 1);
    Symbol symbol;
    symbol.kind = SymbolKind::kMetaValue;
    symbol.meta_value = prim_.Eval(args.Required("value"));
    scopes_.Define(target.id, std::move(symbol));
    return false;
  }
  if (callee == "T.alloc_buffer" || callee == "T.sblock_alloc_buffer") {
    ParseAllocBuffer(*call, target.id, target.span);
    return false;
  }
  if (callee == "T.Buffer") {
    CallArgs args(*call, callee, {"shape", "dtype", "data", "strides", "elem_offset", "scope", "align",
                                  "offset_factor", "buffer_type", "axis_separators"}, 1);
    scopes_.DefineBuffer(target.id, MakeBuffer(BufferKwargs(args), target.id, false, assign.value->span));
    return false;
  }
  if (callee == "T.axis.remap") {
    ParseRemap({assign.target.get()}, *call);
    return false;
  }
  if (callee.rfind("T.axis.", 0) == 0) {
    ParseAxis(target.id, target.span, *call);
    return false;
  }
  if (callee == "T.env_thread") {
    ParseEnvThread(*call, target);
    return false;
  }
  if (callee == "T.launch_thread") {
    out->push_back(ParseAttrCall(*call, &target, [&] { return ParseStmts(stmts, i + 1); }));
    return true;
  }
  if (callee == "T.decl_buffer") {
    out->push_back(ParseDeclBuffer(*call, target.id, rest));
    return true;
  }
  if (callee == "T.allocate") {
    out->push_back(ParseAllocate(*call, target.id, target.span, rest));
    return true;
  }
  // `x = T.bind(value)` is TVM's explicit spelling of `x = value`.
  const py::Expr* value_expr = assign.value.get();
  if (callee == "T.bind") {
    CallArgs args(*call, callee, {"value"}, 1);
    value_expr = &args.Required("value");
  }
  PrimExpr value = prim_.Eval(*value_expr);
  ir::Var var = NewVar(target.id, value->dtype, target.span);
  out->push_back(ParseLetRest(var, value, stmts, i, assign.span));
  return true;
}

// `T.Bind(value, var=x)` with x declared by `x = T.int32()`: a let of that
// variable over the rest of the statements.
bool TIRParser::ParseExplicitBind(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out) {
  const auto& call = stmts[i]->Cast<py::ExprStmt>().value->Cast<py::Call>();
  CallArgs args(call, "T.Bind", {"value", "var"}, 2);
  const auto* name = args.Required("var").As<py::Name>();
  const Symbol* symbol = name ? scopes_.Lookup(name->id) : nullptr;
  if (symbol == nullptr || symbol->kind != SymbolKind::kPrimVar) {
    Fail(args.Required("var").span, "T.Bind: var= must name a declared variable (e.g. x = T.int32())");
  }
  ir::Var var = symbol->prim_var;
  PrimExpr value = prim_.Eval(args.Required("value"));
  if (value->dtype != var->dtype) value = ir::cast(var->dtype, value);
  out->push_back(WithStmtSpan(new tir::LetStmtNode(var, value, ParseStmts(stmts, i + 1)), stmts[i]->span));
  return true;
}

tir::Stmt TIRParser::ParseLetRest(const ir::Var& var, PrimExpr value, const py::StmtList& stmts, size_t i,
                                  const Span& span) {
  if (value->dtype != var->dtype) value = ir::cast(var->dtype, value);
  scopes_.Push();
  scopes_.DefinePrimVar(var->name_hint, var);
  tir::Stmt body = ParseStmts(stmts, i + 1);
  scopes_.Pop();
  return WithStmtSpan(new tir::LetStmtNode(var, value, body), span);
}

bool TIRParser::ParseAnnAssign(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out) {
  const auto& assign = stmts[i]->Cast<py::AnnAssign>();
  const py::Name& target = TargetName(*assign.target, "an annotated value");
  const py::Expr& annotation = UnwrapLetAnnotation(*assign.annotation);
  std::optional<DataType> dtype = ScalarType(annotation);
  if (!dtype) {
    Fail(annotation.span, fmt::format("expected a scalar type such as T.int32, got {}", Describe(annotation)));
  }
  if (!assign.value) Fail(assign.span, fmt::format("'{}' needs a value", target.id));
  PrimExpr value = prim_.Eval(*assign.value);
  ir::Var var = NewVar(target.id, *dtype, target.span);
  if (const auto* call = annotation.As<py::Call>(); call && dtype->is_handle() && !call->args.empty()) {
    const_cast<ir::VarNode*>(var.get())->pointee = HandlePointee(*call);
  }
  out->push_back(ParseLetRest(var, value, stmts, i, assign.span));
  return true;
}

tir::Stmt TIRParser::ParseStore(const py::Subscript& target, PrimExpr value, const Span& span) {
  ir::Buffer buffer = prim_.EvalBuffer(*target.value);
  std::vector<PrimExpr> indices;
  int lanes = 1;
  for (const PrimExprParser::Index& index : prim_.EvalIndices(buffer, target)) {
    if (!index.end.defined()) {
      indices.push_back(index.begin);
      lanes = std::max(lanes, index.begin->dtype.lanes());
      continue;
    }
    PrimExpr ramp = prim_.SliceRamp(index);
    indices.push_back(ramp);
    lanes = ramp.as<ir::RampNode>()->lanes;
  }
  DataType expected = buffer->dtype.with_lanes(lanes);
  if (value->dtype != expected) {
    if (value->dtype.lanes() == 1 && lanes > 1) value = make<ir::BroadcastNode>(ir::cast(buffer->dtype, value), lanes);
    if (value->dtype.lanes() != lanes) {
      Fail(span, fmt::format("cannot store a value of {} lanes into {} lanes of buffer '{}'", value->dtype.lanes(),
                             lanes, buffer->name));
    }
    value = ir::cast(expected, value);
  }
  return WithStmtSpan(new tir::BufferStoreNode(buffer, value, std::move(indices)), span);
}

tir::Stmt TIRParser::ParseAugAssign(const py::AugAssign& stmt) {
  const auto* target = stmt.target->As<py::Subscript>();
  if (target == nullptr) Fail(stmt.target->span, "only buffer elements can be updated in place (A[i] += x)");
  PrimExpr current = prim_.Eval(*target);
  PrimExpr operand = prim_.Eval(*stmt.value);
  PrimExpr value;
  switch (stmt.op) {
    case py::BinOpKind::kAdd: value = FoldBinary(NodeKind::kPrimAdd, current, operand, stmt.span); break;
    case py::BinOpKind::kSub: value = FoldBinary(NodeKind::kPrimSub, current, operand, stmt.span); break;
    case py::BinOpKind::kMult: value = FoldBinary(NodeKind::kPrimMul, current, operand, stmt.span); break;
    case py::BinOpKind::kFloorDiv: value = FoldBinary(NodeKind::kPrimFloorDiv, current, operand, stmt.span); break;
    case py::BinOpKind::kMod: value = FoldBinary(NodeKind::kPrimFloorMod, current, operand, stmt.span); break;
    case py::BinOpKind::kDiv:
      MatchOperandTypes(current, operand, stmt.span, "/");
      if (!current->dtype.is_floating()) Fail(stmt.span, "'/=' on integers is ambiguous: use '//='");
      value = ir::truncdiv(current, operand);
      break;
    default: Fail(stmt.span, fmt::format("operator '{}=' is not supported", py::Spelling(stmt.op)));
  }
  return ParseStore(*target, value, stmt.span);
}

tir::PrimFunc ParsePrimFunc(const ModuleContext& mod, const py::FunctionDef& def) {
  return TIRParser(mod, def).Parse();
}

}  // namespace rlx::text::detail
