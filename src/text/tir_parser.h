// The PrimFunc parser (private to src/text): one instance per `@T.prim_func`.
//
// Statements are read in order into a list; a statement that opens a scope
// for everything after it (`x: T.int32 = v`, `assert c, "msg"`,
// `B = T.decl_buffer(...)`, `p = T.allocate(...)`, and a plain `x = expr`,
// which TVM reads as a LetStmt) takes the rest of its list as its body.
// Declarations (`n = T.int64()`, `A = T.match_buffer(a, ...)` of a
// parameter, `T.func_attr`) and the parts of the innermost block being built
// (`T.axis.*`, `T.reads`, `T.writes`, `T.where`, `T.block_attr`,
// `T.alloc_buffer`, region `T.match_buffer`, `with T.init()`) produce no
// statement. parse_tir.cc holds functions, parameters, buffers and plain
// statements; parse_tir_scope.cc loops, if/assert/with and buffer
// declarations; parse_tir_block.cc blocks, read/write inference and the
// root block.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "text/parser_context.h"

namespace rlx::text::detail {

// Structural equality of PrimExprs with variables compared by identity
// (defined with the printer, print_tir.cc).
bool ExprDeepEqual(const ir::PrimExpr& a, const ir::PrimExpr& b);

// Sets a new statement's span and wraps it.
template <typename T>
tir::Stmt WithStmtSpan(T* node, const Span& span) {
  node->span = span;
  return tir::Stmt(node);
}

// The name of a Name target, or a CompileError.
inline const py::Name& TargetName(const py::Expr& target, const char* what) {
  const auto* name = target.As<py::Name>();
  if (name == nullptr) Fail(target.span, std::string(what) + " must be assigned to a plain name");
  return *name;
}

class TIRParser {
 public:
  TIRParser(const ModuleContext& mod, const py::FunctionDef& def);
  tir::PrimFunc Parse();

 private:
  // The block being built by `with T.block(...)`.
  struct BlockState {
    std::string name;
    std::vector<tir::IterVar> iter_vars;
    std::vector<ir::PrimExpr> iter_values;
    std::optional<std::vector<tir::BufferRegion>> reads;
    std::optional<std::vector<tir::BufferRegion>> writes;
    ir::PrimExpr predicate;
    std::vector<ir::Buffer> alloc_buffers;
    std::vector<tir::MatchBufferRegion> match_buffers;
    ir::Dict annotations;
    tir::Stmt init;
  };
  struct Loop {
    ir::Var var;
    tir::Range range;
  };
  using Kwargs = std::unordered_map<std::string, const py::Expr*>;

  // ---- Function level (parse_tir.cc) ----
  void ParseParams();
  DataType HandlePointee(const py::Call& call);
  static const py::Expr& UnwrapLetAnnotation(const py::Expr& annotation);
  std::optional<DataType> ScalarType(const py::Expr& annotation);
  ir::Var NewVar(const std::string& name, DataType dtype, const Span& span);
  ir::Buffer MakeBuffer(const Kwargs& args, const std::string& name, bool define_new_dims, const Span& span);
  Kwargs BufferKwargs(const CallArgs& args);
  ir::PrimExpr EvalDefining(const py::Expr& expr);

  // ---- Statements (parse_tir.cc; loops and scopes in parse_tir_scope.cc) ----
  tir::Stmt ParseStmts(const py::StmtList& stmts, size_t begin);
  // Parses stmts[i]; appends what it builds to `out`; returns true when it
  // consumed the rest of the list.
  bool ParseStmt(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out);
  bool ParseExprStmt(const py::ExprStmt& stmt, std::vector<tir::Stmt>* out);
  bool ParseAssign(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out);
  bool ParseNameAssign(const py::Assign& assign, const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out);
  bool ParseAnnAssign(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out);
  tir::Stmt ParseStore(const py::Subscript& target, ir::PrimExpr value, const Span& span);
  tir::Stmt ParseAugAssign(const py::AugAssign& stmt);
  bool DeclareVars(const py::Expr& target, const py::Expr& value);
  bool ParseExplicitBind(const py::StmtList& stmts, size_t i, std::vector<tir::Stmt>* out);
  tir::Stmt ParseLetRest(const ir::Var& var, ir::PrimExpr value, const py::StmtList& stmts, size_t i, const Span& span);
  tir::Stmt ParseFor(const py::For& loop);
  tir::Stmt ParseGrid(const py::For& loop, const py::Call& call);
  ir::Var DefineLoopVar(const py::Expr& target, DataType dtype);
  tir::Stmt ParseIf(const py::If& stmt);
  tir::Stmt ParseWhile(const py::While& stmt);
  ir::PrimExpr ParseLoopStep(const py::Expr& expr, DataType dtype);
  tir::Stmt MakeWhile(const py::Expr& condition, const py::StmtList& body, const Span& span);
  tir::Stmt ParseAssert(const py::Assert& stmt, const py::StmtList& stmts, size_t i);
  tir::Stmt ParseWith(const py::With& stmt);
  tir::Stmt ParseAllocate(const py::Call& call, const std::string& name, const Span& name_span,
                          const std::function<tir::Stmt()>& body);
  tir::Stmt ParseDeclBuffer(const py::Call& call, const std::string& name, const std::function<tir::Stmt()>& body);
  void ParseMatchBuffer(const py::Call& call, const std::string& name, const Span& span);
  void ParseAllocBuffer(const py::Call& call, const std::string& name, const Span& span);
  tir::Stmt RestOrEmpty(const py::StmtList& stmts, size_t begin);
  // T.attr / T.launch_thread (parse_tir_scope.cc): `target` names the
  // variable a launch of a thread tag defines (may be null).
  tir::Stmt ParseAttrCall(const py::Call& call, const py::Name* target, const std::function<tir::Stmt()>& body);
  ObjectRef EvalAttrNode(const py::Expr& expr);
  void ParseEnvThread(const py::Call& call, const py::Name& target);

  // ---- Blocks (parse_tir_block.cc) ----
  BlockState& CurrentBlock(const Span& span, const std::string& what);
  tir::Stmt ParseBlock(const py::With& stmt, const py::Call& call);
  void ParseInit(const py::With& stmt);
  void ParseAxis(const std::string& target, const Span& target_span, const py::Call& call);
  // `vi, vj = T.axis.remap(...)`, or `vi = T.axis.remap("S", [i])` (one target).
  void ParseRemap(const std::vector<const py::Expr*>& targets, const py::Call& call);
  void ParseRegions(const py::Call& call, bool reads);
  bool ParseBlockFrameCall(const py::Call& call);
  tir::Block BuildBlock(BlockState& state, tir::Stmt body, const Span& span);
  tir::Stmt WrapRootBlock(tir::Stmt body);

  const ModuleContext& mod_;
  const py::FunctionDef& def_;
  Scopes scopes_;
  PrimExprParser prim_;
  std::vector<ir::Var> params_;
  std::vector<std::pair<ir::Var, ir::Buffer>> buffer_map_;
  ir::Dict attrs_;
  std::vector<ir::Buffer> root_allocs_;
  std::vector<BlockState*> blocks_;
  std::vector<Loop> loops_;
  // Variables of T.env_thread / T.launch_thread, to their IterVar.
  std::unordered_map<const ir::VarNode*, tir::IterVar> thread_vars_;
};

}  // namespace rlx::text::detail
