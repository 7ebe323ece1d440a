// BlockBuilder: the one place that owns graph-level normal form.
//
// Every expression a parser or pass creates goes through Normalize (or an
// Emit*), which
//   1. puts it in A-normal form: a nested non-leaf argument is emitted as its
//      own binding first;
//   2. deduces its struct info (ops via the registry's rules; calls to module
//      functions by matching the callee's symbolic parameters against the
//      arguments and substituting into its return struct info; tuples,
//      tuple indexing, If as the least upper bound of its branches, SeqExpr);
//   3. throws CompileError for a provable mismatch (at the expression's span).
//
// Scopes: BeginScope/EndScope bracket a function body (its parameters'
// symbolic variables are in scope); BeginDataflowBlock/BeginBindingBlock and
// EndBlock bracket blocks. Emit inside a dataflow block makes a DataflowVar
// unless it is EmitOutput.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"

namespace rlx::graph {

class BlockBuilder {
 public:
  explicit BlockBuilder(ir::IRModule context_module = nullptr);
  ~BlockBuilder();
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // The module used to resolve GlobalVar callees (and to add functions to).
  ir::IRModule GetContextModule() const;
  // Adds (or replaces) a function in the context module.
  GlobalVar AddFunction(const ObjectRef& func, const std::string& name);

  arith::Analyzer& analyzer();

  // Function scope: `params` are defined, and the symbolic variables that
  // first appear in their struct info become defined.
  void BeginScope(const std::vector<Var>& params);
  void EndScope();

  void BeginDataflowBlock();
  void BeginBindingBlock();
  BindingBlock EndBlock();
  bool CurrentBlockIsDataflow() const;

  // Normalizes `expr` and binds it to a fresh variable named `name_hint`.
  Var Emit(const Expr& expr, const std::string& name_hint = "", Span span = {});
  // As Emit, with `var` as the variable (its struct info, if any, must be
  // compatible with the deduced one and is kept when more precise).
  Var EmitWithVar(const Var& var, const Expr& expr, Span span = {});
  // Emits `var = match_cast(value, sinfo)`, defining its new symbolic vars.
  Var EmitMatchCast(const Expr& value, const StructInfo& sinfo, const std::string& name_hint = "",
                    Span span = {});
  // In a dataflow block: a Var (not DataflowVar) visible after the block.
  Var EmitOutput(const Expr& expr, const std::string& name_hint = "", Span span = {});
  // Appends an already-normalized binding as is.
  void EmitNormalized(const Binding& binding);

  // A-normal form + struct info for `expr`, without binding it.
  Expr Normalize(const Expr& expr);
  // Normalizes an expression into a SeqExpr (for function bodies and If
  // branches): nested bindings emitted while normalizing land in it.
  Expr NormalizeSeq(const Expr& expr);

  // Is the symbolic variable `var` defined in the current function scope?
  bool IsSymbolicVarDefined(const ir::Var& var) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlx::graph
