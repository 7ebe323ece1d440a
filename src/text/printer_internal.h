// Private machinery of the TVMScript printer (text/printer.h).
//
// The printer mirrors the structure of TVM's own (src/script/printer): IR is
// turned into statement documents held by a stack of frames, and the frames
// decide where definitions land. That matters because TVMScript hoists
// definitions: a symbolic variable first met deep inside a function body is
// declared `n = T.int64()` at the top of the function, and `cls = Module`
// appears in a function only once it refers to another module function.
//
//   Doc        one printed line, optionally opening an indented block
//              (`with R.dataflow():`, `for i in range(n):`, `def f(...):`).
//   Frame      a scope: the statements printed so far at this level and the
//              names defined in it (released when the frame is popped, so
//              sibling scopes may reuse a name, as in TVM).
//   ExprText   an expression's text and its Python precedence, so that
//              operators get exactly the parentheses Python needs.
//
// Names: every variable, buffer and module gets one unique name per scope
// chain; a clash gets `_1`, `_2`, ... (TVM's GenerateUniqueName). The
// prefixes I, T, R and the module alias `cls` are always taken.
//
// Member functions are split by level: printer.cc (documents, names,
// attributes, entry points), print_tir.cc (PrimExpr, TIR statements,
// PrimFunc), print_relax.cc (struct info, graph expressions, functions).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info.h"
#include "rlx/ir/module.h"
#include "rlx/tir/function.h"

namespace rlx::text::detail {

// One printed statement: a line, and when `opens_block` the statements of
// the indented block below it (an empty block prints `pass`).
struct Doc {
  std::string line;
  bool opens_block = false;
  std::vector<Doc> body;
  bool blank_line_after = false;  // after a `def`, as TVM prints functions
};
using Docs = std::vector<Doc>;

Doc Line(std::string text);
Doc Block(std::string header, Docs body);
void Append(Docs* to, Docs from);
// Renders with four spaces per level; no trailing whitespace on any line.
std::string RenderDocs(const Docs& docs);

// Python operator precedence (higher binds tighter), as TVM's doc printer.
enum Precedence : int {
  kPrecOr = 3,
  kPrecAnd = 4,
  kPrecNot = 5,
  kPrecCompare = 6,
  kPrecAdd = 11,
  kPrecMul = 12,
  kPrecAtom = 15,
};

struct ExprText {
  std::string text;
  int prec = kPrecAtom;
};

// `"..."` with Python escapes.
std::string Quote(const std::string& text);
// A float literal that reads back to the same double: `1.0`, `0.1`, `1e+20`.
std::string FloatLiteral(double value);
// "float32", or "void" for an unknown type (as TVM's DType2Str).
std::string DTypeString(DataType dtype);

// Structural equality of PrimExprs (variables by identity): what TVM's
// ExprDeepEqual answers, used for loop/axis matching and redundant
// annotations.
bool ExprDeepEqual(const ir::PrimExpr& a, const ir::PrimExpr& b);
// Structural equality of struct info (symbolic variables by identity).
bool StructInfoEqual(const graph::StructInfo& a, const graph::StructInfo& b);

enum class FrameKind { kRoot, kModule, kRelaxFunc, kRelax, kTIRFunc, kTIR };

struct Frame {
  explicit Frame(FrameKind kind) : kind(kind) {}
  FrameKind kind;
  Docs stmts;
  std::vector<const Node*> defined;  // released when the frame is popped
  // Relax function frames.
  bool collecting_func_vars = false;  // printing the signature
  std::unordered_set<const Node*> func_vars;
  bool module_alias_printed = false;
  // TIR frames.
  std::vector<const tir::ForNode*> loops;  // loops this frame prints
  bool allow_concise = false;              // last statement of its sequence
};

class ScriptPrinter {
 public:
  explicit ScriptPrinter(ir::IRModule module = nullptr);

  std::string ModuleText(const ir::IRModule& module);
  std::string PrimFuncText(const tir::PrimFunc& func, const std::string& name);
  std::string FunctionText(const graph::Function& func, const std::string& name);
  std::string StructInfoText(const graph::StructInfo& sinfo);
  std::string PrimExprText(const ir::PrimExpr& expr);
  std::string AnyText(const ObjectRef& node);

 private:
  // ---- Frames and names (printer.cc) ----
  class FrameGuard {
   public:
    FrameGuard(ScriptPrinter* printer, FrameKind kind);
    ~FrameGuard();
    FrameGuard(const FrameGuard&) = delete;
    FrameGuard& operator=(const FrameGuard&) = delete;
    Frame& operator*() const { return *frame_; }
    Frame* operator->() const { return frame_; }

   private:
    ScriptPrinter* printer_;
    Frame* frame_;
  };
  Frame& Top() { return *frames_.back(); }
  // Defines `node` in `frame` under a unique name derived from `hint`.
  std::string Define(const Node* node, Frame& frame, const std::string& hint);
  // Makes `node` print as `text` (no name reserved), e.g. `A.data`.
  void DefineAlias(const Node* node, Frame& frame, const std::string& text);
  bool IsDefined(const Node* node) const { return names_.count(node) > 0; }
  const std::string& NameOf(const Node* node) const { return names_.at(node); }
  void Reserve(const std::string& name) { used_names_.insert(name); }
  std::string UniqueName(const std::string& hint) const;

  // Dialect prefixes; each records that the header must import it.
  std::string I(const std::string& attr);
  std::string T(const std::string& attr);
  std::string R(const std::string& attr);
  std::string WithHeader(const Docs& docs);

  // Attribute values (dict entries, op attributes).
  std::string AttrValue(const ObjectRef& value);
  std::string DictText(const ir::Dict& dict, const std::string& drop_key = "");
  std::string OpAttrValue(const ObjectRef& value, graph::AttrKind kind);
  std::string IndexMapText(const ir::ArrayNode& pair);

  // ---- Scalar expressions (print_tir.cc) ----
  ExprText PrintExpr(const ir::PrimExpr& expr);
  std::string Expr(const ir::PrimExpr& expr) { return PrintExpr(expr).text; }
  std::string ExprList(const std::vector<ir::PrimExpr>& exprs);
  std::string ExprTuple(const std::vector<ir::PrimExpr>& exprs);
  ExprText IntImmText(const ir::IntImmNode* imm);
  ExprText FloatImmText(const ir::FloatImmNode* imm);
  ExprText VarText(const ir::VarNode* var);
  ExprText BinaryText(const ir::BinaryNode* node);
  ExprText CallText(const ir::CallNode* call);
  std::string VarCreation(const ir::VarNode* var);
  std::string TypeAnnotation(const ir::VarNode* var);
  std::string BufferIndices(const std::vector<ir::PrimExpr>& indices);
  // Defines a variable met before its definition in the current function.
  void DefineFreeVar(const ir::VarNode* var);

  // ---- TIR (print_tir.cc) ----
  Docs PrimFuncDocs(const tir::PrimFunc& func, const std::string& name);
  void PrintParams(const tir::PrimFunc& func, std::vector<std::string>* params,
                   std::unordered_set<const Node*>* inlined);
  void PrintBody(const tir::Stmt& body, Frame& frame);
  Docs PrintStmt(const tir::Stmt& stmt);
  Docs ForDocs(const tir::ForNode* loop);
  Docs BlockDocs(const tir::BlockNode* block, const tir::BlockRealizeNode* realize);
  void PrintIterVars(const tir::BlockNode* block, const tir::BlockRealizeNode* realize, Frame& frame);
  Docs LetDocs(const tir::LetStmtNode* let);
  Docs AttrDocs(const tir::AttrStmtNode* attr);
  std::string AttrNodeText(const ObjectRef& node);
  Docs AssertDocs(const tir::AssertStmtNode* assert_stmt);
  Docs AllocateDocs(const tir::AllocateNode* alloc);
  Docs DeclBufferDocs(const tir::DeclBufferNode* decl, bool defines_data);
  Docs IfDocs(const tir::IfThenElseNode* node);
  Docs WhileDocs(const tir::WhileNode* node);
  // `T.match_buffer(...)`-style declaration. New shape variables are
  // declared in `frame` (before the caller's line); with `inline_data` the
  // buffer's data pointer is defined with it (prints as `A.data` later),
  // otherwise it must exist already and prints as `data=...`.
  std::string BufferDecl(const ir::Buffer& buffer, const std::string& method, const std::string& first_arg,
                         Frame& frame, bool inline_data);
  std::string DefineTIRVar(const ir::Var& var, Frame& frame);
  Frame& TIRFunctionFrame();
  Frame& BufferViewFrame(const ir::Buffer& buffer);
  std::string BufferAnnotation(const ir::Buffer& buffer, Frame& frame);
  std::string BufferName(const ir::Buffer& buffer);
  std::string DefineBuffer(const ir::Buffer& buffer, Frame& frame);
  std::string RegionText(const tir::BufferRegion& region);
  const tir::BlockNode* ImplicitRootBlock(const tir::PrimFunc& func) const;
  bool AllowConcise() { return Top().allow_concise; }

  // ---- Graph level (print_relax.cc) ----
  std::string SInfo(const graph::StructInfo& sinfo);
  std::string ShapeVar(const ir::PrimExpr& expr);
  std::string TensorSInfo(const graph::TensorStructInfoNode* tensor);
  std::string FuncSInfo(const graph::FuncStructInfoNode* func);
  std::string RelaxExpr(const graph::Expr& expr);
  std::string RelaxVarText(const graph::VarNode* var);
  std::string CallExpr(const graph::CallNode* call);
  std::optional<std::string> SpecialCall(const graph::CallNode* call, const std::string& op_name);
  std::string CallTIRExpr(const graph::CallNode* call, const std::string& op_name);
  std::string OpCallExpr(const graph::CallNode* call, const std::string& op_name);
  std::string Callee(const graph::Expr& expr);
  std::string ConstantExpr(const graph::ConstantNode* constant);
  std::string GlobalVarText(const graph::GlobalVarNode* gvar);
  Docs FunctionDocs(const graph::Function& func, const std::string& name, bool top_level);
  std::string FunctionDecorator(const graph::Function& func, bool top_level);
  Docs SeqExprDocs(const graph::Expr& seq, bool use_return);
  Docs BindingBlockDocs(const graph::BindingBlock& block);
  Docs BindingDocs(const graph::Binding& binding);
  Docs IfBindingDocs(const graph::VarBindingNode* binding, const graph::IfNode* if_node);
  std::optional<std::string> Annotation(const graph::Var& var, const graph::Expr& value);
  std::string DefineRelaxVar(const graph::Var& var);
  Frame& RelaxFunctionFrame();

  ir::IRModule module_;
  std::vector<std::unique_ptr<Frame>> frames_;
  std::unordered_map<const Node*, std::string> names_;
  std::unordered_set<const Node*> aliases_;  // names_ entries that reserve no name
  std::unordered_set<std::string> used_names_;
  // Graph variables used in the top-level function being printed.
  std::unordered_set<const Node*> used_relax_vars_;
  bool relax_mode_ = false;  // graph-level spelling of PrimExprs
  bool uses_ir_ = false;
  bool uses_tir_ = false;
  bool uses_relax_ = false;
};

}  // namespace rlx::text::detail
