// Private machinery of the TVMScript parser (text/parser.h).
//
// The parser reads the Python AST (text/py_ast.h) and interprets it the way
// TVM's script parser does, but without a Python evaluator: every construct
// is recognized by its shape (`T.axis.remap(...)` is a Call whose callee's
// dotted name is "T.axis.remap") and translated directly, so each error can
// name what was expected at that exact place.
//
// Pieces, one file each:
//   parser.cc            module level: classes, decorators, the two passes
//                        (declare every function, then parse bodies), entry
//                        points.
//   parse_prim_expr.cc   PrimExprParser: scalar expressions shared by both
//                        dialects (symbolic shapes in R, everything in T).
//   parse_prim_buffer.cc buffer loads, indices and regions; attribute
//                        dictionaries.
//   parse_relax.cc       graph-level functions: signatures, statements,
//                        dataflow blocks, if/else (RelaxParser).
//   parse_relax_expr.cc  graph-level expressions, operator calls, builtins.
//   parse_relax_sinfo.cc struct info annotations and symbolic dimensions.
//   parse_tir.cc         PrimFuncs: parameters, buffers, statements.
//   parse_tir_scope.cc   loops, if/assert/with, buffer declarations.
//   parse_tir_block.cc   blocks: iteration variables, regions, read/write
//                        inference, the implicit root block.
//
// Names live in Scopes: a stack of frames mapping a Python name to what it
// denotes (a graph variable, a scalar variable, a buffer, the module). Both
// dialects share it, so a PrimExpr inside a Relax shape and inside a TIR
// loop are read by the same PrimExprParser.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/py_ast.h"
#include "rlx/tir/function.h"

namespace rlx::text::detail {

using ir::PrimExpr;

// ---------------------------------------------------------------------------
// Errors and small AST helpers.

[[noreturn]] void Fail(const Span& span, const std::string& message);

// Runs `fn`; a CompileError without a location is rethrown at `span`.
template <typename F>
auto WithSpan(const Span& span, F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const CompileError& error) {
    if (error.diagnostic().span.defined() || !span.defined()) throw;
    Diagnostic diag = error.diagnostic();
    diag.span = span;
    throw CompileError(std::move(diag));
  }
}

// "T.axis.remap" for `T.axis.remap`, "x" for `x`; nullopt for anything else.
std::optional<std::string> DottedName(const py::Expr& expr);
// The dotted name of a call's callee, or "" when it has none; `relax.X` and
// `relax.op.X` (TVM's Python API) read as `R.X`.
std::string CalleeName(const py::Call& call);
// Is `expr` a call whose callee is `name`?
bool IsCallTo(const py::Expr& expr, const std::string& name);
// A short description of an AST node for messages: "a string", "a call of
// R.add", "the name 'x'".
std::string Describe(const py::Expr& expr);

const py::Constant* AsConstant(const py::Expr& expr, py::ConstantKind kind);
bool IsNone(const py::Expr* expr);
// An int literal (a negated one included); nullopt otherwise.
std::optional<int64_t> AsIntLiteral(const py::Expr& expr);
std::optional<std::string> AsStringLiteral(const py::Expr& expr);
std::optional<bool> AsBoolLiteral(const py::Expr& expr);
// The elements of a Tuple or List display; nullptr for anything else.
const std::vector<py::ExprPtr>* AsSequence(const py::Expr& expr);

// A dtype string checked with DataType::Parse ("void" and "" are the
// unknown dtype): "invalid dtype 'float33'" otherwise.
DataType ParseDType(const std::string& text, const Span& span);
// A string literal naming a dtype.
DataType EvalDType(const py::Expr& expr);

// A call's arguments bound to parameter names, Python style.
class CallArgs {
 public:
  // `params` in positional order; the first `num_required` must be given.
  // With `varargs`, extra positional arguments are kept in rest().
  CallArgs(const py::Call& call, const std::string& func_name, std::vector<std::string> params,
           size_t num_required, bool varargs = false);

  const py::Expr* Get(const std::string& name) const;
  const py::Expr& Required(const std::string& name) const;
  bool Has(const std::string& name) const { return Get(name) != nullptr && !IsNone(Get(name)); }
  const std::vector<const py::Expr*>& rest() const { return rest_; }
  const py::Call& call() const { return call_; }

 private:
  const py::Call& call_;
  std::string func_name_;
  std::map<std::string, const py::Expr*> values_;
  std::vector<const py::Expr*> rest_;
};

// ---------------------------------------------------------------------------
// Names.

// kMetaValue: a name bound by `x = T.meta_var(value)`, which stands for the
// value itself (no variable, no let), as TVM's meta_var does.
enum class SymbolKind { kRelaxVar, kPrimVar, kBuffer, kModule, kMetaValue };

struct Symbol {
  SymbolKind kind = SymbolKind::kPrimVar;
  graph::Var relax_var;
  ir::Var prim_var;
  ir::Buffer buffer;
  PrimExpr meta_value;
};

class Scopes {
 public:
  Scopes() { Push(); }
  void Push() { frames_.emplace_back(); }
  void Pop() { frames_.pop_back(); }
  // Defines (or redefines, shadowing) `name` in the innermost frame.
  void Define(const std::string& name, Symbol symbol) { frames_.back()[name] = std::move(symbol); }
  void DefineRelaxVar(const std::string& name, const graph::Var& var);
  void DefinePrimVar(const std::string& name, const ir::Var& var);
  void DefineBuffer(const std::string& name, const ir::Buffer& buffer);
  const Symbol* Lookup(const std::string& name) const;
  // Names defined in the innermost frame (for dataflow blocks).
  const std::unordered_map<std::string, Symbol>& Innermost() const { return frames_.back(); }

  // Names of dataflow variables whose block has ended without listing them
  // in R.output (only for a better "undefined variable" message).
  std::unordered_set<std::string> hidden_dataflow_vars;

 private:
  std::vector<std::unordered_map<std::string, Symbol>> frames_;
};

// ---------------------------------------------------------------------------
// Scalar expressions (parse_prim_expr.cc).

// Reads PrimExprs: literals, variables, arithmetic, comparisons, buffer
// loads, `T.*` constructors and intrinsics.
struct TIRBuiltinInfo;  // text/tir_builtins.h

class PrimExprParser {
 public:
  struct Options {
    // The dtype of a bare int literal: int32 in TIR, int64 in Relax shapes.
    DataType int_literal = DataType::Int32();
    // Called for a Name that is not defined; returns a new variable or
    // throws. Unset: "undefined variable 'x'".
    std::function<ir::Var(const py::Name&)> on_undefined;
    // The word for a missing name in messages ("variable" / "symbolic variable").
    std::string undefined_what = "variable";
  };

  PrimExprParser(const Scopes& scopes, Options options) : scopes_(scopes), options_(std::move(options)) {}

  PrimExpr Eval(const py::Expr& expr);
  std::vector<PrimExpr> EvalList(const py::Expr& expr);
  // A buffer named by `expr` (a Name bound to a buffer).
  ir::Buffer EvalBuffer(const py::Expr& expr);
  // Whether `expr` is a Name bound to a buffer.
  bool NamesBuffer(const py::Expr& expr) const {
    const auto* name = expr.As<py::Name>();
    const Symbol* symbol = name ? scopes_.Lookup(name->id) : nullptr;
    return symbol != nullptr && symbol->kind == SymbolKind::kBuffer;
  }
  // `A[i, j]` with slices allowed: the buffer and each index or [lo, hi).
  struct Index {
    PrimExpr begin;
    PrimExpr end;  // undefined for a point index
    int64_t step = 1;  // a vector slice `a:b:s` (a Ramp of stride s)
    Span span;
  };
  // The Ramp a vector slice index denotes: ceil((end - begin) / step) lanes.
  PrimExpr SliceRamp(const Index& index);
  std::vector<Index> EvalIndices(const ir::Buffer& buffer, const py::Subscript& sub);
  // A region `A[vi, 0:4]` (for T.reads / T.writes / T.match_buffer).
  tir::BufferRegion EvalRegion(const py::Expr& expr);

  Options& options() { return options_; }

 private:
  PrimExpr EvalName(const py::Name& name);
  PrimExpr EvalAttribute(const py::Attribute& attr);
  PrimExpr EvalBinOp(const py::BinOp& op);
  PrimExpr EvalCompare(const py::Compare& cmp);
  PrimExpr EvalBoolOp(const py::BoolOp& op);
  PrimExpr EvalUnaryOp(const py::UnaryOp& op);
  PrimExpr EvalSubscript(const py::Subscript& sub);
  PrimExpr EvalCall(const py::Call& call);
  PrimExpr EvalTypedConstructor(const py::Call& call, DataType dtype);
  PrimExpr EvalExplicitBinary(const py::Call& call, const std::string& name);
  PrimExpr EvalIntrinsic(const py::Call& call, const std::string& name);
  PrimExpr EvalBuiltin(const py::Call& call, const std::string& name, const TIRBuiltinInfo& info,
                       const py::Expr* dtype_keyword);
  PrimExpr EvalLet(const py::Call& call);
  std::pair<PrimExpr, PrimExpr> EvalPair(const py::Call& call, const std::string& name);
  PrimExpr Bool(const PrimExpr& value, const py::Expr& where);

  const Scopes& scopes_;
  Options options_;
};

// Gives a node just built (held by no one else) the span of its source.
PrimExpr WithSpanOf(PrimExpr expr, const Span& span);

// Constant folding as TVM's Python operators do it (`1 + 2` → 3, `x * 1` →
// x); anything else is built unfolded. `kind` is a binary PrimExpr kind.
PrimExpr FoldBinary(NodeKind kind, PrimExpr a, PrimExpr b, const Span& span);
// Matches the operand types of a binary operation like TVM (literals adapt,
// ints widen, ints become floats, a scalar broadcasts to a vector); a
// CompileError for what cannot be matched.
void MatchOperandTypes(PrimExpr& a, PrimExpr& b, const Span& span, const char* op);

// Attribute dictionaries: `{"key": value}` with values ints, floats, bools,
// strings, dicts, lists and (in TIR) typed constants. Relax spelling makes
// plain ints int64 and plain floats float64; TIR spelling int32/float32.
enum class AttrLevel { kRelax, kTIR };
ir::Dict EvalAttrDict(const py::Expr& expr, AttrLevel level, PrimExprParser* prim);
ObjectRef EvalAttrValue(const py::Expr& expr, AttrLevel level, PrimExprParser* prim);

// ---------------------------------------------------------------------------
// Module state shared by the function parsers.

enum class Dialect { kRelax, kTIR };

struct FunctionDecl {
  std::string name;
  Dialect dialect = Dialect::kRelax;
  const py::FunctionDef* def = nullptr;
};

// The `metadata = tvm.ir.load_json(...)` header of TVM's printed form:
// entries by type key (parse_metadata.cc). An undefined entry is a kind
// this project does not read.
struct Metadata {
  std::map<std::string, std::vector<ObjectRef>> entries;
};
std::shared_ptr<Metadata> ReadMetadata(const std::string& json, const Span& span);

struct ModuleContext {
  SourceFilePtr source;
  std::shared_ptr<const Metadata> metadata;  // null without a metadata header
  std::string class_name;  // empty for top-level functions
  std::vector<FunctionDecl> decls;
  std::unordered_map<std::string, size_t> decl_index;
  // What a BlockBuilder sees: parsed PrimFuncs and Relax functions, and
  // signature stubs for Relax functions not parsed yet.
  ir::IRModule context_module;

  bool HasFunction(const std::string& name) const { return decl_index.count(name) > 0; }
  // `cls.f` / `Module.f` / (top level) `f`: the GlobalVar for `f`, or a
  // CompileError naming the module.
  graph::GlobalVar GlobalFor(const std::string& name, const Span& span) const;
};

// Relax (parse_relax.cc): the declared signature of a function (a Function
// without a body, for call deduction before the callee is parsed) and the
// full function.
graph::Function DeclareRelaxFunction(const ModuleContext& mod, const py::FunctionDef& def);
graph::Function ParseRelaxFunction(const ModuleContext& mod, const py::FunctionDef& def);

// TIR (parse_tir.cc).
tir::PrimFunc ParsePrimFunc(const ModuleContext& mod, const py::FunctionDef& def);

// Decorator keyword `key` of a `@X.function(...)` / `@T.prim_func(...)`
// decorator, as a bool literal; `default_value` when absent.
bool DecoratorFlag(const py::FunctionDef& def, const std::string& key, bool default_value);

}  // namespace rlx::text::detail
