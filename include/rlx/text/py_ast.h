// A small Python abstract syntax tree for the subset of Python that
// TVMScript is written in, and the parser entry point that builds it.
//
// Design:
//  * The tree knows Python syntax only, nothing of TVM: `T.int64(4)` is a Call
//    of an Attribute of a Name. Translating it to IR is someone else's job.
//  * Nodes mirror Python's own `ast` module (same names, same shapes) so that
//    anyone who knows `ast` can read them; where this parser supports less
//    (no comprehensions, no try/raise/yield, ...) it rejects the input with a
//    CompileError instead of building a partial node.
//  * Every node is owned through std::unique_ptr by its parent. A node has a
//    NodeKind and a Span; concrete types are reached with Is<T>/As<T>/Cast<T>.
//  * Spans follow Python 3.8+: 1-based line and column of the first character,
//    end_line/end_column one past the last character (end_column is
//    exclusive). Columns count bytes, as Diagnostic::Render does. A compound statement's span runs from its keyword (`def`, not
//    its decorators) to the end of its last body statement; a parenthesized
//    expression `(a)` keeps the span of `a`, but enclosing nodes include the
//    parentheses.
//  * Node::height is the height of the subtree (1 for a leaf). The parser
//    rejects trees higher than kMaxAstDepth, so recursive visitors (Dump, the
//    destructors, IR translation) never exhaust the stack.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rlx/support/logging.h"
#include "rlx/support/source.h"

namespace rlx::py {

// The parser rejects deeper trees with a CompileError.
inline constexpr int kMaxAstDepth = 1000;

enum class NodeKind : uint8_t {
  // Expressions (kName .. kStarred).
  kName,
  kConstant,
  kAttribute,
  kCall,
  kSubscript,
  kSlice,
  kTuple,
  kList,
  kDict,
  kBinOp,
  kUnaryOp,
  kBoolOp,
  kCompare,
  kIfExp,
  kLambda,
  kStarred,
  // Statements (kExprStmt .. kImportFrom).
  kExprStmt,
  kAssign,
  kAnnAssign,
  kAugAssign,
  kReturn,
  kIf,
  kFor,
  kWhile,
  kWith,
  kFunctionDef,
  kClassDef,
  kPass,
  kBreak,
  kContinue,
  kAssert,
  kImport,
  kImportFrom,
  // The root.
  kModule,
};

// "Name", "Call", ... (the type name).
const char* NodeKindName(NodeKind kind);

struct Node {
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const NodeKind kind;
  Span span;
  int height = 1;  // Height of this subtree; set by the parser.

  template <typename T>
  bool Is() const {
    return T::ClassOf(kind);
  }
  template <typename T>
  const T* As() const {
    return Is<T>() ? static_cast<const T*>(this) : nullptr;
  }
  template <typename T>
  T* As() {
    return Is<T>() ? static_cast<T*>(this) : nullptr;
  }
  // As<T>(), but a wrong kind is an internal error.
  template <typename T>
  const T& Cast() const {
    RLX_ICHECK(Is<T>()) << "py::Node is " << NodeKindName(kind);
    return static_cast<const T&>(*this);
  }

 protected:
  Node(NodeKind k, Span s) : kind(k), span(std::move(s)) {}
};

struct Expr : Node {
  static bool ClassOf(NodeKind k) { return k >= NodeKind::kName && k <= NodeKind::kStarred; }

 protected:
  using Node::Node;
};

struct Stmt : Node {
  static bool ClassOf(NodeKind k) { return k >= NodeKind::kExprStmt && k <= NodeKind::kImportFrom; }

 protected:
  using Node::Node;
};

using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// Base of every concrete node type: fixes its kind.
template <NodeKind K, typename Base>
struct NodeOf : Base {
  static constexpr NodeKind kKind = K;
  static bool ClassOf(NodeKind k) { return k == K; }
  explicit NodeOf(Span s) : Base(K, std::move(s)) {}
};

// ---------------------------------------------------------------------------
// Operators.

enum class BinOpKind : uint8_t {
  kAdd, kSub, kMult, kMatMult, kDiv, kFloorDiv, kMod, kPow,
  kLShift, kRShift, kBitOr, kBitXor, kBitAnd,
};
enum class UnaryOpKind : uint8_t { kUAdd, kUSub, kNot, kInvert };
enum class BoolOpKind : uint8_t { kAnd, kOr };
enum class CmpOpKind : uint8_t { kEq, kNotEq, kLt, kLtE, kGt, kGtE, kIs, kIsNot, kIn, kNotIn };

// Python spellings: "+", "//", "-" (unary), "not", "and", "not in", ...
const char* Spelling(BinOpKind op);
const char* Spelling(UnaryOpKind op);
const char* Spelling(BoolOpKind op);
const char* Spelling(CmpOpKind op);

// ---------------------------------------------------------------------------
// Expressions.

// `x`
struct Name : NodeOf<NodeKind::kName, Expr> {
  using NodeOf::NodeOf;
  std::string id;
};

enum class ConstantKind : uint8_t { kInt, kFloat, kString, kBool, kNone, kEllipsis };

// `1`, `0x1F`, `1.5e-3`, `"s"` (adjacent strings are concatenated), `True`,
// `None`, `...`. Only the field matching value_kind is meaningful.
struct Constant : NodeOf<NodeKind::kConstant, Expr> {
  using NodeOf::NodeOf;
  ConstantKind value_kind = ConstantKind::kNone;
  int64_t int_value = 0;
  // The literal exceeds INT64_MAX (Python ints are unbounded): int_value
  // holds its low 64 bits and `text` its exact spelling. Note that
  // -9223372036854775808 is USub applied to such a literal.
  bool int_overflow = false;
  double float_value = 0;  // inf for literals too large for a double
  bool bool_value = false;
  std::string string_value;  // Decoded (escapes applied), UTF-8.
  std::string text;          // The source spelling (all pieces, for strings).
};

// `value.attr`
struct Attribute : NodeOf<NodeKind::kAttribute, Expr> {
  using NodeOf::NodeOf;
  ExprPtr value;
  std::string attr;
  Span attr_span;
};

// `name=value` in a call or class header; `**value` when name is empty.
struct Keyword {
  std::string name;
  Span name_span;  // Undefined for `**value`.
  ExprPtr value;
  Span span;       // The whole `name=value`.
};

// `func(args..., keywords...)`. A `*x` argument is a Starred in args.
struct Call : NodeOf<NodeKind::kCall, Expr> {
  using NodeOf::NodeOf;
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};

// `value[index]`. `a[i, j]` has a Tuple index (parenthesized == false);
// `a[1:2]` a Slice; `a[:, 0]` a Tuple holding a Slice.
struct Subscript : NodeOf<NodeKind::kSubscript, Expr> {
  using NodeOf::NodeOf;
  ExprPtr value;
  ExprPtr index;
};

// `lower:upper:step` inside a subscript; absent parts are null.
struct Slice : NodeOf<NodeKind::kSlice, Expr> {
  using NodeOf::NodeOf;
  ExprPtr lower;
  ExprPtr upper;
  ExprPtr step;
};

// `(a, b)`, `a, b`, `()`. Elements may be Starred.
struct Tuple : NodeOf<NodeKind::kTuple, Expr> {
  using NodeOf::NodeOf;
  std::vector<ExprPtr> elts;
  bool parenthesized = false;  // Written with its own parentheses.
};

// `[a, b]`
struct List : NodeOf<NodeKind::kList, Expr> {
  using NodeOf::NodeOf;
  std::vector<ExprPtr> elts;
};

// `{k: v, **d}`; keys[i] is null for a `**d` entry.
struct Dict : NodeOf<NodeKind::kDict, Expr> {
  using NodeOf::NodeOf;
  std::vector<ExprPtr> keys;
  std::vector<ExprPtr> values;
};

// `left op right`
struct BinOp : NodeOf<NodeKind::kBinOp, Expr> {
  using NodeOf::NodeOf;
  BinOpKind op = BinOpKind::kAdd;
  ExprPtr left;
  ExprPtr right;
};

// `-x`, `+x`, `~x`, `not x`
struct UnaryOp : NodeOf<NodeKind::kUnaryOp, Expr> {
  using NodeOf::NodeOf;
  UnaryOpKind op = UnaryOpKind::kUSub;
  ExprPtr operand;
};

// `a and b and c` is one BoolOp with three values.
struct BoolOp : NodeOf<NodeKind::kBoolOp, Expr> {
  using NodeOf::NodeOf;
  BoolOpKind op = BoolOpKind::kAnd;
  std::vector<ExprPtr> values;
};

// `a < b <= c`: left = a, ops = {<, <=}, comparators = {b, c}.
struct Compare : NodeOf<NodeKind::kCompare, Expr> {
  using NodeOf::NodeOf;
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;
};

// `body if test else orelse`
struct IfExp : NodeOf<NodeKind::kIfExp, Expr> {
  using NodeOf::NodeOf;
  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};

enum class ParamKind : uint8_t {
  kRegular,        // `x`, `x: ann`, `x=1`, `x: ann = 1`
  kVarArgs,        // `*args`
  kKwOnlyMarker,   // a bare `*`
  kKwArgs,         // `**kwargs`
  kPosOnlyMarker,  // `/`
};

// One entry of a def's or lambda's parameter list, in source order.
struct Param {
  ParamKind kind = ParamKind::kRegular;
  std::string name;        // Empty for the two markers.
  Span name_span;
  ExprPtr annotation;      // May be null; always null in a lambda.
  ExprPtr default_value;   // May be null.
  Span span;               // The whole parameter.
};

// `lambda params: body`
struct Lambda : NodeOf<NodeKind::kLambda, Expr> {
  using NodeOf::NodeOf;
  std::vector<Param> params;
  ExprPtr body;
};

// `*value` (in a call, a tuple/list display or an assignment target).
struct Starred : NodeOf<NodeKind::kStarred, Expr> {
  using NodeOf::NodeOf;
  ExprPtr value;
};

// ---------------------------------------------------------------------------
// Statements.

// An expression used as a statement, e.g. `R.output(lv0)`.
struct ExprStmt : NodeOf<NodeKind::kExprStmt, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr value;
};

// `target = value`. The target is a Name, Attribute, Subscript, or a
// Tuple/List of targets (possibly with one Starred). `a = b = c` is rejected.
struct Assign : NodeOf<NodeKind::kAssign, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr target;
  ExprPtr value;
};

// `target: annotation = value` or `target: annotation` (value null). The
// target is a single Name, Attribute or Subscript.
struct AnnAssign : NodeOf<NodeKind::kAnnAssign, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;
};

// `target op= value` (+=, -=, *=, /=, //=, %=, **=, @=, &=, |=, ^=, <<=, >>=).
struct AugAssign : NodeOf<NodeKind::kAugAssign, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr target;
  BinOpKind op = BinOpKind::kAdd;
  ExprPtr value;
};

// `return` (value null) or `return value`.
struct Return : NodeOf<NodeKind::kReturn, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr value;
};

// `if test: body else: orelse`. An `elif` is an If alone in orelse, whose span
// starts at the `elif` keyword.
struct If : NodeOf<NodeKind::kIf, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};

// `for target in iter: body else: orelse`
struct For : NodeOf<NodeKind::kFor, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr target;
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
};

// `while test: body else: orelse`
struct While : NodeOf<NodeKind::kWhile, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};

// One `context_expr as optional_vars` of a with statement.
struct WithItem {
  ExprPtr context_expr;
  ExprPtr optional_vars;  // May be null.
  Span span;
};

// `with a as x, b: body`
struct With : NodeOf<NodeKind::kWith, Stmt> {
  using NodeOf::NodeOf;
  std::vector<WithItem> items;
  StmtList body;
};

// `@decorators def name(params) -> returns: body`
struct FunctionDef : NodeOf<NodeKind::kFunctionDef, Stmt> {
  using NodeOf::NodeOf;
  std::string name;
  Span name_span;
  std::vector<ExprPtr> decorators;
  std::vector<Param> params;
  ExprPtr returns;  // May be null.
  StmtList body;
};

// `@decorators class name(bases, keywords): body`
struct ClassDef : NodeOf<NodeKind::kClassDef, Stmt> {
  using NodeOf::NodeOf;
  std::string name;
  Span name_span;
  std::vector<ExprPtr> decorators;
  std::vector<ExprPtr> bases;
  std::vector<Keyword> keywords;
  StmtList body;
};

struct Pass : NodeOf<NodeKind::kPass, Stmt> {
  using NodeOf::NodeOf;
};
struct Break : NodeOf<NodeKind::kBreak, Stmt> {
  using NodeOf::NodeOf;
};
struct Continue : NodeOf<NodeKind::kContinue, Stmt> {
  using NodeOf::NodeOf;
};

// `assert test, msg` (msg may be null).
struct Assert : NodeOf<NodeKind::kAssert, Stmt> {
  using NodeOf::NodeOf;
  ExprPtr test;
  ExprPtr msg;
};

// `a.b.c as d` in an import; name "*" for `from m import *`.
struct Alias {
  std::string name;    // Dotted.
  std::string asname;  // Empty when absent.
  Span span;
};

// `import a.b as c, d`
struct Import : NodeOf<NodeKind::kImport, Stmt> {
  using NodeOf::NodeOf;
  std::vector<Alias> names;
};

// `from ..module import x as y, z`: module "module" (may be empty), level 2.
struct ImportFrom : NodeOf<NodeKind::kImportFrom, Stmt> {
  using NodeOf::NodeOf;
  std::string module;
  int level = 0;
  std::vector<Alias> names;
};

// A whole file.
struct Module : NodeOf<NodeKind::kModule, Node> {
  using NodeOf::NodeOf;
  StmtList body;
};

// ---------------------------------------------------------------------------
// Functions.

// Parses `source` as Python. Throws CompileError on any syntax error (or on
// syntax this parser does not support) with a span at the offending token.
std::unique_ptr<Module> ParsePython(SourceFilePtr source);

// A compact s-expression for tests and debugging, e.g. for `y = f(x, k=1)[0]`:
//   (= y (sub (call f x k=1) 0))
// Names print bare, numbers as written, strings double-quoted; absent
// optional children print as `_`; statement lists print as `(s1 s2 ...)`.
std::string Dump(const Node& node);

// Calls fn on each direct child node (expressions and statements, including
// those inside Keyword, Param, WithItem), in source order.
void ForEachChild(const Node& node, const std::function<void(const Node&)>& fn);

}  // namespace rlx::py
