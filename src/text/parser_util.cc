// Small helpers of the TVMScript parser shared by both dialects: error
// reporting, reading literals and dotted names off the Python AST, binding a
// call's arguments to parameter names, and the scoped name table. See
// parser_context.h for the overall design.
#include <fmt/format.h>

#include "text/parser_context.h"

namespace rlx::text::detail {

void Fail(const Span& span, const std::string& message) { ThrowError(span, message); }

std::optional<std::string> DottedName(const py::Expr& expr) {
  if (const auto* name = expr.As<py::Name>()) return name->id;
  if (const auto* attr = expr.As<py::Attribute>()) {
    std::optional<std::string> base = DottedName(*attr->value);
    if (!base) return std::nullopt;
    return *base + "." + attr->attr;
  }
  return std::nullopt;
}

std::string CalleeName(const py::Call& call) {
  std::string name = DottedName(*call.func).value_or("");
  // TVM's tests also call the Python API inside TVMScript: `relax.const(1)`,
  // `relax.op.add(x, y)` mean R.const and R.add.
  for (const char* prefix : {"relax.op.", "relax."}) {
    size_t length = std::char_traits<char>::length(prefix);
    if (name.compare(0, length, prefix) == 0 && name.size() > length) return "R." + name.substr(length);
  }
  return name;
}

bool IsCallTo(const py::Expr& expr, const std::string& name) {
  const auto* call = expr.As<py::Call>();
  return call != nullptr && CalleeName(*call) == name;
}

std::string Describe(const py::Expr& expr) {
  if (const auto* name = expr.As<py::Name>()) return fmt::format("the name '{}'", name->id);
  if (const auto* constant = expr.As<py::Constant>()) {
    switch (constant->value_kind) {
      case py::ConstantKind::kInt: return fmt::format("the integer {}", constant->text);
      case py::ConstantKind::kFloat: return fmt::format("the number {}", constant->text);
      case py::ConstantKind::kString: return fmt::format("the string \"{}\"", constant->string_value);
      case py::ConstantKind::kBool: return constant->bool_value ? "True" : "False";
      case py::ConstantKind::kNone: return "None";
      case py::ConstantKind::kEllipsis: return "...";
    }
  }
  if (const auto* call = expr.As<py::Call>()) {
    std::string callee = CalleeName(*call);
    return callee.empty() ? "a call" : fmt::format("a call of {}", callee);
  }
  if (std::optional<std::string> dotted = DottedName(expr)) return *dotted;
  if (expr.Is<py::Tuple>()) return "a tuple";
  if (expr.Is<py::List>()) return "a list";
  if (expr.Is<py::Dict>()) return "a dict";
  return fmt::format("a {} expression", py::NodeKindName(expr.kind));
}

const py::Constant* AsConstant(const py::Expr& expr, py::ConstantKind kind) {
  const auto* constant = expr.As<py::Constant>();
  return constant != nullptr && constant->value_kind == kind ? constant : nullptr;
}

bool IsNone(const py::Expr* expr) { return expr != nullptr && AsConstant(*expr, py::ConstantKind::kNone) != nullptr; }

std::optional<int64_t> AsIntLiteral(const py::Expr& expr) {
  if (const auto* unary = expr.As<py::UnaryOp>(); unary && unary->op == py::UnaryOpKind::kUSub) {
    if (const py::Constant* c = AsConstant(*unary->operand, py::ConstantKind::kInt)) {
      return static_cast<int64_t>(0ULL - static_cast<uint64_t>(c->int_value));
    }
    return std::nullopt;
  }
  const py::Constant* c = AsConstant(expr, py::ConstantKind::kInt);
  if (c == nullptr) return std::nullopt;
  if (c->int_overflow) Fail(expr.span, fmt::format("integer literal {} does not fit in 64 bits", c->text));
  return c->int_value;
}

std::optional<std::string> AsStringLiteral(const py::Expr& expr) {
  if (const py::Constant* c = AsConstant(expr, py::ConstantKind::kString)) return c->string_value;
  return std::nullopt;
}

std::optional<bool> AsBoolLiteral(const py::Expr& expr) {
  if (const py::Constant* c = AsConstant(expr, py::ConstantKind::kBool)) return c->bool_value;
  return std::nullopt;
}

const std::vector<py::ExprPtr>* AsSequence(const py::Expr& expr) {
  if (const auto* tuple = expr.As<py::Tuple>()) return &tuple->elts;
  if (const auto* list = expr.As<py::List>()) return &list->elts;
  return nullptr;
}

DataType ParseDType(const std::string& text, const Span& span) {
  if (text.empty() || text == "void") return DataType::Void();
  std::optional<DataType> dtype = DataType::Parse(text);
  if (!dtype) Fail(span, fmt::format("invalid dtype '{}'", text));
  return *dtype;
}

DataType EvalDType(const py::Expr& expr) {
  // `T.handle("int64").ty` (TVM's pointer type): a value of handle dtype.
  if (const auto* attr = expr.As<py::Attribute>(); attr && attr->attr == "ty" && IsCallTo(*attr->value, "T.handle")) {
    return DataType::Handle();
  }
  std::optional<std::string> text = AsStringLiteral(expr);
  if (!text) Fail(expr.span, fmt::format("expected a dtype string such as \"float32\", got {}", Describe(expr)));
  return ParseDType(*text, expr.span);
}

// ---------------------------------------------------------------------------
// CallArgs.

CallArgs::CallArgs(const py::Call& call, const std::string& func_name, std::vector<std::string> params,
                   size_t num_required, bool varargs)
    : call_(call), func_name_(func_name) {
  for (size_t i = 0; i < call.args.size(); ++i) {
    const py::Expr& arg = *call.args[i];
    if (arg.Is<py::Starred>()) Fail(arg.span, fmt::format("{}: *arguments are not supported", func_name));
    if (i < params.size()) {
      values_[params[i]] = &arg;
    } else if (varargs) {
      rest_.push_back(&arg);
    } else {
      Fail(arg.span, fmt::format("{} takes at most {} argument{}, got {}", func_name, params.size(),
                                 params.size() == 1 ? "" : "s", call.args.size()));
    }
  }
  for (const py::Keyword& keyword : call.keywords) {
    if (keyword.name.empty()) Fail(keyword.span, fmt::format("{}: **arguments are not supported", func_name));
    if (std::find(params.begin(), params.end(), keyword.name) == params.end()) {
      Fail(keyword.name_span, fmt::format("{} has no argument '{}'; expected one of: {}", func_name, keyword.name,
                                          fmt::join(params, ", ")));
    }
    if (values_.count(keyword.name)) {
      Fail(keyword.name_span, fmt::format("{} got multiple values for argument '{}'", func_name, keyword.name));
    }
    values_[keyword.name] = keyword.value.get();
  }
  for (size_t i = 0; i < num_required && i < params.size(); ++i) {
    if (!values_.count(params[i])) {
      Fail(call.span, fmt::format("{}: missing required argument '{}'", func_name, params[i]));
    }
  }
}

const py::Expr* CallArgs::Get(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : it->second;
}

const py::Expr& CallArgs::Required(const std::string& name) const {
  const py::Expr* expr = Get(name);
  if (expr == nullptr) Fail(call_.span, fmt::format("{}: missing required argument '{}'", func_name_, name));
  return *expr;
}

// ---------------------------------------------------------------------------
// Scopes.

void Scopes::DefineRelaxVar(const std::string& name, const graph::Var& var) {
  Symbol symbol;
  symbol.kind = SymbolKind::kRelaxVar;
  symbol.relax_var = var;
  Define(name, std::move(symbol));
}

void Scopes::DefinePrimVar(const std::string& name, const ir::Var& var) {
  Symbol symbol;
  symbol.kind = SymbolKind::kPrimVar;
  symbol.prim_var = var;
  Define(name, std::move(symbol));
}

void Scopes::DefineBuffer(const std::string& name, const ir::Buffer& buffer) {
  Symbol symbol;
  symbol.kind = SymbolKind::kBuffer;
  symbol.buffer = buffer;
  Define(name, std::move(symbol));
}

const Symbol* Scopes::Lookup(const std::string& name) const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end()) return &found->second;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Module context.

graph::GlobalVar ModuleContext::GlobalFor(const std::string& name, const Span& span) const {
  if (!HasFunction(name)) {
    if (class_name.empty()) Fail(span, fmt::format("undefined function '{}'", name));
    Fail(span, fmt::format("module '{}' has no function '{}'", class_name, name));
  }
  auto* node = new graph::GlobalVarNode(name);
  node->span = span;
  return graph::GlobalVar(node);
}

bool DecoratorFlag(const py::FunctionDef& def, const std::string& key, bool default_value) {
  for (const py::ExprPtr& decorator : def.decorators) {
    const auto* call = decorator->As<py::Call>();
    if (call == nullptr) continue;
    for (const py::Keyword& keyword : call->keywords) {
      if (keyword.name != key) continue;
      std::optional<bool> value = AsBoolLiteral(*keyword.value);
      if (!value) Fail(keyword.value->span, fmt::format("'{}' must be True or False", key));
      return *value;
    }
  }
  return default_value;
}

}  // namespace rlx::text::detail
