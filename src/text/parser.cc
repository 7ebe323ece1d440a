// The TVMScript parser: module level and entry points (text/parser.h).
//
// A source is Python: `from tvm.script import ...` / `import` lines are
// accepted and ignored; each `@I.ir_module class Name:` (also
// `@tvm.script.ir_module`) is a module; `@R.function` / `@T.prim_func`
// definitions outside any class are gathered into one module.
//
// A module is parsed in two passes, as TVM does, so functions may call each
// other in any order:
//   1. declare: every function name is recorded (a duplicate is an error),
//      and the signature of every Relax function is parsed into a body-less
//      Function, so a call to it can be deduced before it is parsed;
//   2. define: PrimFuncs first (they refer to nothing), then Relax functions
//      in source order. Each BlockBuilder sees a context module holding what
//      is parsed so far and the declared signatures of the rest.
// The module keeps source order. `I.module_attrs({...})` and
// `I.module_global_infos({...})` set module attributes; `name =
// R.ExternFunc("symbol")` in the class body adds an external function.
// A top-level `metadata = tvm.ir.load_json("""...""")` (TVM's header for
// large constants) makes `metadata["relax.expr.Constant"][i]` available.
#include "rlx/text/parser.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "rlx/op/op.h"
#include "text/parser_context.h"

namespace rlx::text {
namespace detail {
namespace {

enum class DecoratorKind { kIRModule, kRelaxFunction, kPrimFunc, kOther };

DecoratorKind ClassifyDecorator(const py::Expr& decorator) {
  const py::Expr& callee = decorator.Is<py::Call>() ? *decorator.Cast<py::Call>().func : decorator;
  std::string name = DottedName(callee).value_or("");
  if (name == "I.ir_module" || name == "tvm.script.ir_module" || name == "tvm.script.ir.ir_module" ||
      name == "ir_module") {
    return DecoratorKind::kIRModule;
  }
  if (name == "R.function" || name == "relax.function" || name == "tvm.script.relax.function") {
    return DecoratorKind::kRelaxFunction;
  }
  if (name == "T.prim_func" || name == "tir.prim_func" || name == "tvm.script.tir.prim_func") {
    return DecoratorKind::kPrimFunc;
  }
  return DecoratorKind::kOther;
}

Dialect FunctionDialect(const py::FunctionDef& def) {
  if (def.decorators.empty()) {
    Fail(def.name_span, fmt::format("function '{}' needs a decorator: @R.function or @T.prim_func", def.name));
  }
  for (const py::ExprPtr& decorator : def.decorators) {
    switch (ClassifyDecorator(*decorator)) {
      case DecoratorKind::kRelaxFunction: return Dialect::kRelax;
      case DecoratorKind::kPrimFunc: return Dialect::kTIR;
      default: break;
    }
  }
  Fail(def.decorators[0]->span, fmt::format("unknown decorator {}: expected @R.function or @T.prim_func",
                                            Describe(*def.decorators[0])));
}

// Builds one module from the statements of a class body (or from top-level
// function definitions).
class ModuleBuilder {
 public:
  ModuleBuilder(SourceFilePtr source, std::string class_name, std::shared_ptr<const Metadata> metadata)
      : prim_(scopes_, PrimExprParser::Options{}) {
    ctx_.metadata = std::move(metadata);
    ctx_.source = std::move(source);
    ctx_.class_name = std::move(class_name);
  }

  void AddFunction(const py::FunctionDef& def) {
    if (ctx_.HasFunction(def.name)) {
      const FunctionDecl& first = ctx_.decls[ctx_.decl_index.at(def.name)];
      Fail(def.name_span, fmt::format("duplicate function name '{}' (first defined at line {})", def.name,
                                      first.def->name_span.line));
    }
    CheckNotExtern(def.name, def.name_span);
    ctx_.decl_index[def.name] = ctx_.decls.size();
    ctx_.decls.push_back({def.name, FunctionDialect(def), &def});
    order_.push_back(def.name);
  }

  void AddClassStatement(const py::Stmt& stmt) {
    if (const auto* def = stmt.As<py::FunctionDef>()) return AddFunction(*def);
    if (stmt.Is<py::Pass>()) return;
    if (const auto* expr = stmt.As<py::ExprStmt>()) {
      if (AsStringLiteral(*expr->value)) return;  // a docstring
      if (IsCallTo(*expr->value, "I.module_attrs")) {
        CallArgs args(expr->value->Cast<py::Call>(), "I.module_attrs", {"attrs"}, 1);
        attrs_ = EvalAttrDict(args.Required("attrs"), AttrLevel::kTIR, &prim_);
        return;
      }
      if (IsCallTo(*expr->value, "I.module_global_infos")) {
        CallArgs args(expr->value->Cast<py::Call>(), "I.module_global_infos", {"global_infos"}, 1);
        global_infos_ = EvalAttrDict(args.Required("global_infos"), AttrLevel::kTIR, &prim_);
        return;
      }
    }
    if (const auto* assign = stmt.As<py::Assign>(); assign && IsCallTo(*assign->value, "R.ExternFunc")) {
      const auto* target = assign->target->As<py::Name>();
      const auto& call = assign->value->Cast<py::Call>();
      CallArgs args(call, "R.ExternFunc", {"global_symbol"}, 1);
      std::optional<std::string> symbol = AsStringLiteral(args.Required("global_symbol"));
      if (target == nullptr || !symbol) Fail(stmt.span, "expected `name = R.ExternFunc(\"symbol\")`");
      if (ctx_.HasFunction(target->id)) Fail(target->span, fmt::format("duplicate function name '{}'", target->id));
      CheckNotExtern(target->id, target->span);
      auto* node = new graph::ExternFuncNode(*symbol);
      node->span = assign->value->span;
      externs_[target->id] = ObjectRef(static_cast<const Node*>(node));
      order_.push_back(target->id);
      return;
    }
    Fail(stmt.span, "expected a function definition (@R.function or @T.prim_func) in the module class");
  }

  ir::IRModule Build(const Span& span) {
    std::unordered_map<std::string, ObjectRef> parsed;
    std::vector<ir::IRModuleNode::Entry> context;
    for (const FunctionDecl& decl : ctx_.decls) {
      if (decl.dialect == Dialect::kRelax) context.emplace_back(decl.name, DeclareRelaxFunction(ctx_, *decl.def));
    }
    ctx_.context_module = make<ir::IRModuleNode>(context, ir::Dict());
    for (const FunctionDecl& decl : ctx_.decls) {
      if (decl.dialect != Dialect::kTIR) continue;
      tir::PrimFunc func = ParsePrimFunc(ctx_, *decl.def);
      parsed[decl.name] = func;
      ctx_.context_module = ir::WithFunction(ctx_.context_module, decl.name, func);
    }
    for (const FunctionDecl& decl : ctx_.decls) {
      if (decl.dialect != Dialect::kRelax) continue;
      graph::Function func = ParseRelaxFunction(ctx_, *decl.def);
      parsed[decl.name] = func;
      ctx_.context_module = ir::WithFunction(ctx_.context_module, decl.name, func);
    }
    std::vector<ir::IRModuleNode::Entry> functions;
    for (const std::string& name : order_) {
      auto it = parsed.find(name);
      functions.emplace_back(name, it != parsed.end() ? it->second : externs_.at(name));
    }
    auto* module = new ir::IRModuleNode(std::move(functions), attrs_);
    module->global_infos = global_infos_;
    module->span = span;
    return ir::IRModule(module);
  }

 private:
  void CheckNotExtern(const std::string& name, const Span& span) {
    if (externs_.count(name)) Fail(span, fmt::format("duplicate function name '{}'", name));
  }

  ModuleContext ctx_;
  Scopes scopes_;  // empty: module attributes are literals
  PrimExprParser prim_;
  std::vector<std::string> order_;
  std::unordered_map<std::string, ObjectRef> externs_;
  ir::Dict attrs_;
  ir::Dict global_infos_;
};

struct ParsedSource {
  std::unique_ptr<py::Module> ast;
  std::shared_ptr<const Metadata> metadata;
  std::vector<const py::ClassDef*> classes;
  std::vector<const py::FunctionDef*> functions;
};

ParsedSource ReadTopLevel(const SourceFilePtr& source) {
  ParsedSource parsed;
  parsed.ast = py::ParsePython(source);
  for (const py::StmtPtr& stmt : parsed.ast->body) {
    if (stmt->Is<py::Import>() || stmt->Is<py::ImportFrom>() || stmt->Is<py::Pass>()) continue;
    if (const auto* expr = stmt->As<py::ExprStmt>(); expr && AsStringLiteral(*expr->value)) continue;
    if (const auto* assign = stmt->As<py::Assign>()) {
      // `metadata = tvm.ir.load_json("""...""")`: TVM's metadata header.
      const auto* target = assign->target->As<py::Name>();
      if (target && target->id == "metadata" && IsCallTo(*assign->value, "tvm.ir.load_json")) {
        CallArgs args(assign->value->Cast<py::Call>(), "tvm.ir.load_json", {"json"}, 1);
        std::optional<std::string> json = AsStringLiteral(args.Required("json"));
        if (!json) Fail(args.Required("json").span, "tvm.ir.load_json expects the JSON text as a string");
        parsed.metadata = ReadMetadata(*json, args.Required("json").span);
        continue;
      }
    }
    if (const auto* cls = stmt->As<py::ClassDef>()) {
      bool is_module = false;
      for (const py::ExprPtr& decorator : cls->decorators) {
        is_module |= ClassifyDecorator(*decorator) == DecoratorKind::kIRModule;
      }
      if (!is_module) {
        Fail(cls->name_span, fmt::format("class '{}' is not decorated with @I.ir_module", cls->name));
      }
      parsed.classes.push_back(cls);
      continue;
    }
    if (const auto* def = stmt->As<py::FunctionDef>()) {
      parsed.functions.push_back(def);
      continue;
    }
    Fail(stmt->span, "expected an @I.ir_module class or an @R.function / @T.prim_func definition at the top level");
  }
  return parsed;
}

ir::IRModule BuildClass(const ParsedSource& parsed, const SourceFilePtr& source, const py::ClassDef& cls) {
  ModuleBuilder builder(source, cls.name, parsed.metadata);
  for (const py::StmtPtr& stmt : cls.body) builder.AddClassStatement(*stmt);
  return builder.Build(cls.span);
}

ir::IRModule BuildTopLevel(const ParsedSource& parsed, const SourceFilePtr& source,
                           const std::vector<const py::FunctionDef*>& functions) {
  ModuleBuilder builder(source, "", parsed.metadata);
  for (const py::FunctionDef* def : functions) builder.AddFunction(*def);
  Span span = functions.front()->span;
  return builder.Build(span);
}

[[noreturn]] void FailEmpty(const SourceFilePtr& source) {
  Span span;
  span.source = source;
  span.line = span.end_line = 1;
  span.column = 1;
  span.end_column = 2;
  Fail(span, "expected an @I.ir_module class or @R.function / @T.prim_func definitions, found none");
}

}  // namespace
}  // namespace detail

ir::IRModule ParseModule(const SourceFilePtr& source) {
  op::RegisterAllOps();
  detail::ParsedSource parsed = detail::ReadTopLevel(source);
  if (parsed.classes.size() > 1) {
    detail::Fail(parsed.classes[1]->name_span,
                 fmt::format("expected one @I.ir_module class, found a second one ('{}')", parsed.classes[1]->name));
  }
  if (parsed.classes.size() == 1) {
    if (!parsed.functions.empty()) {
      detail::Fail(parsed.functions[0]->name_span,
                   "functions outside the @I.ir_module class are not allowed next to it; move them into the class");
    }
    return detail::BuildClass(parsed, source, *parsed.classes[0]);
  }
  if (parsed.functions.empty()) detail::FailEmpty(source);
  return detail::BuildTopLevel(parsed, source, parsed.functions);
}

std::vector<std::pair<std::string, ir::IRModule>> ParseModules(const SourceFilePtr& source) {
  op::RegisterAllOps();
  detail::ParsedSource parsed = detail::ReadTopLevel(source);
  std::vector<std::pair<std::string, ir::IRModule>> modules;
  for (const py::ClassDef* cls : parsed.classes) modules.emplace_back(cls->name, detail::BuildClass(parsed, source, *cls));
  if (!parsed.functions.empty()) {
    if (!modules.empty()) {
      detail::Fail(parsed.functions[0]->name_span,
                   "functions outside the @I.ir_module classes are not allowed next to them");
    }
    modules.emplace_back("Module", detail::BuildTopLevel(parsed, source, parsed.functions));
  }
  if (modules.empty()) detail::FailEmpty(source);
  return modules;
}

ir::IRModule ParseModuleText(const std::string& text, const std::string& name) {
  return ParseModule(std::make_shared<SourceFile>(name, text));
}

SourceFilePtr ReadSourceFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) ThrowError(Span(), fmt::format("cannot read '{}'", path));
  std::ostringstream content;
  content << file.rdbuf();
  return std::make_shared<SourceFile>(path, content.str());
}

}  // namespace rlx::text
