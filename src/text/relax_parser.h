// The graph-level (Relax) function parser (private to src/text): one
// instance per top-level `@R.function`; nested functions (closures) are
// parsed by the same instance, sharing its names and BlockBuilder.
//
// Every binding goes through the BlockBuilder (graph/block_builder.h), which
// normalizes it and deduces struct info as it is emitted, so a provable shape
// mismatch is reported at the line of the offending call. Spans are set on
// every expression and binding before it is normalized.
//
// Files: parse_relax.cc (functions, statements, dataflow blocks, if/else),
// parse_relax_expr.cc (expressions, operator calls, builtins),
// parse_relax_sinfo.cc (struct info annotations and symbolic dimensions).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/op_registry.h"
#include "text/parser_context.h"

namespace rlx::text::detail {

class RelaxParser {
 public:
  RelaxParser(const ModuleContext& mod, const py::FunctionDef& def);
  ~RelaxParser();

  // The signature only: a Function without a body (return Object when not
  // annotated), for call deduction before the function itself is parsed.
  graph::Function Declare();
  graph::Function Parse();

  // How symbolic dimensions in an annotation are treated.
  enum class DimMode {
    kParam,      // a bare name (or "name" string) not yet defined defines it
    kMatchCast,  // likewise: R.match_cast binds new symbolic variables
    kCallable,   // inside R.Callable: like kParam, local to the callable
    kRet,        // every name must be defined (by the parameters)
    kUse,        // every name must be defined at this point of the body
  };

 private:
  struct Signature {
    std::vector<graph::Var> params;
    graph::StructInfo ret;  // undefined when not annotated
  };

  // ---- Functions and statements (parse_relax.cc) ----
  Signature ParseSignature(const py::FunctionDef& def);
  graph::Function ParseFunction(const py::FunctionDef& def, bool nested);
  graph::Expr ParseBody(const py::FunctionDef& def);
  void ParseStmt(const py::Stmt& stmt);
  void ParseAssign(const py::Assign& assign);
  void ParseAnnAssign(const py::AnnAssign& assign);
  void ParseExprStmt(const py::ExprStmt& stmt);
  void ParseUnpack(const py::Tuple& targets, const py::Expr& value, const Span& span);
  void ParseUnpackLiteral(const std::vector<const py::Name*>& names, const std::vector<py::ExprPtr>& elts,
                          const Span& span);
  bool DeclareSymbolicVar(const py::Name& target, const py::Expr& value);
  graph::Var EmitBinding(const std::string& name, const graph::Expr& value, const graph::StructInfo& annotation,
                         const Span& span);
  graph::Var EmitMatchCast(const std::string& name, const py::Call& call, const Span& span);
  void ParseDataflow(const py::With& with);
  void CollectOutputs(const py::StmtList& body, size_t output_index);
  graph::Var ParseIf(const py::If& stmt);
  struct Branch {
    graph::Expr seq;
    std::string var_name;
    graph::StructInfo annotation;
  };
  Branch ParseBranch(const py::StmtList& stmts, const Span& span);
  void ParseNestedFunction(const py::FunctionDef& def);
  graph::Var DeclareRecursiveFunction(const py::FunctionDef& def);
  void EndCurrentBlock();
  bool IsOutputTarget(const std::string& name) const;

  // ---- Expressions (parse_relax_expr.cc) ----
 public:
  graph::Expr EvalExpr(const py::Expr& expr);

 private:
  graph::Expr EvalName(const py::Name& name);
  std::optional<graph::Expr> MetadataEntry(const py::Subscript& sub);
  graph::Expr EvalAttribute(const py::Attribute& attr);
  graph::Expr EvalCall(const py::Call& call);
  graph::Expr EvalOperator(const py::Call& call, const graph::OpInfo& info);
  graph::Expr EvalOpArg(const py::Expr& arg, const graph::OpInfo& info, size_t index);
  ObjectRef EvalIndexMap(const py::Expr& value, const graph::OpInfo& info);
  ObjectRef EvalOpAttr(const py::Expr& value, const graph::AttrSpec& spec, const graph::OpInfo& info);
  graph::Expr EvalBinOp(const py::BinOp& op);
  graph::Expr EvalUnaryOp(const py::UnaryOp& op);
  graph::Expr EvalCompare(const py::Compare& cmp);
  graph::Expr EvalAstypeMethod(const py::Call& call, const py::Attribute& method);
  ir::PrimExpr PrimOfValues(const py::Expr& expr);
  graph::Expr EvalCallTIR(const py::Call& call, const std::string& name);
  graph::Expr EvalCallPacked(const py::Call& call);
  graph::Expr EvalConst(const py::Call& call);
  graph::Expr EvalFunctionCall(const py::Call& call, graph::Expr callee);
  graph::Expr EvalTupleArgs(const py::Expr& expr, const std::string& what);
  graph::Expr EvalCallee(const py::Expr& expr);
  graph::Expr MakeCall(graph::Expr op, std::vector<graph::Expr> args, ir::Dict attrs,
                       std::vector<graph::StructInfo> sinfo_args, const Span& span);
  graph::Expr MakeOpCall(const std::string& script_name, std::vector<graph::Expr> args, const Span& span);
  std::optional<std::string> ModuleFunctionName(const py::Expr& expr);

  // ---- Struct info and dimensions (parse_relax_sinfo.cc) ----
 public:
  graph::StructInfo EvalSInfo(const py::Expr& expr, DimMode mode);

 private:
  std::vector<graph::StructInfo> EvalSInfoList(const py::Expr& expr, DimMode mode);
  graph::StructInfo EvalTensorSInfo(const py::Call& call, DimMode mode);
  graph::StructInfo EvalShapeSInfo(const py::Call& call, DimMode mode);
  graph::StructInfo EvalPrimSInfo(const py::Call& call, DimMode mode);
  graph::StructInfo EvalCallableSInfo(const py::Call& call, DimMode mode);
  ir::PrimExpr EvalDim(const py::Expr& expr, DimMode mode);
  void PredefineBareDims(const py::Expr& annotation);
  std::vector<ir::PrimExpr> EvalDims(const py::Expr& expr, DimMode mode);
  ir::PrimExpr EvalDimString(const py::Expr& expr, const std::string& text, DimMode mode);
  void CheckDefined(const ir::PrimExpr& expr, const Span& span);
  void CheckDefined(const graph::StructInfo& sinfo, const Span& span);

  const ModuleContext& mod_;
  const py::FunctionDef& def_;
  Scopes scopes_;
  PrimExprParser prim_;
  std::unique_ptr<graph::BlockBuilder> bb_;
  // The function being parsed.
  std::vector<graph::BindingBlock>* blocks_ = nullptr;
  ir::Dict attrs_;
  bool in_dataflow_ = false;
  bool function_scope_open_ = false;  // inside a body (symbolic checks apply)
  // Dataflow outputs: the statement whose binding of a name is an output.
  std::unordered_map<const py::Stmt*, std::unordered_set<std::string>> output_bindings_;
  const py::Stmt* current_stmt_ = nullptr;
};

}  // namespace rlx::text::detail
