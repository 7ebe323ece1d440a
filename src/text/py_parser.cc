// Recursive-descent parser for the TVMScript subset of Python (see
// rlx/text/py_ast.h for the tree it builds).
//
// Design:
//  * One function per grammar rule of Python's own grammar, from statements
//    down to atoms: test (lambda, if-else) > or > and > not > comparison >
//    binary operators > unary > power > primary (trailers) > atom. The six
//    binary levels (| ^ & shifts +- and */ // % @) are one precedence-climbing
//    loop, which keeps the recursion shallow.
//  * Tokens come from the Lexer on demand into a small lookahead ring (two
//    tokens are enough: `not in`, `name=` in calls).
//  * Spans: each rule remembers where its first token starts and closes the
//    node at the end of the last consumed non-layout token (last_end_). So
//    `(a + b) * c` spans the parentheses, as in Python.
//  * Limits that keep any input from exhausting the stack: Nest counts the
//    recursion through brackets, prefix operators, `**`, `if`-`else` and
//    lambda (kMaxRecursion); Finish() rejects trees higher than kMaxAstDepth
//    (long `a.b.c...` or `+` chains, long elif chains, which are built
//    without recursion).
//  * Every error is a CompileError at the offending token saying what was
//    expected and what was found; unclosed brackets add a note at the opener.
#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <array>
#include <optional>
#include <unordered_set>

#include "rlx/support/diagnostic.h"
#include "rlx/text/py_ast.h"
#include "text/py_lexer.h"

namespace rlx::py {
namespace {

using TK = TokenKind;

constexpr int kMaxRecursion = 200;

struct Pos {
  int line = 0;
  int column = 0;
};

Pos StartOf(const Token& token) { return Pos{token.loc.line, token.loc.column}; }

struct BinaryInfo {
  int precedence;  // 0: not a binary operator of these levels.
  BinOpKind op;
};

BinaryInfo BinaryOf(TK kind) {
  switch (kind) {
    case TK::kPipe: return {1, BinOpKind::kBitOr};
    case TK::kCaret: return {2, BinOpKind::kBitXor};
    case TK::kAmp: return {3, BinOpKind::kBitAnd};
    case TK::kLShift: return {4, BinOpKind::kLShift};
    case TK::kRShift: return {4, BinOpKind::kRShift};
    case TK::kPlus: return {5, BinOpKind::kAdd};
    case TK::kMinus: return {5, BinOpKind::kSub};
    case TK::kStar: return {6, BinOpKind::kMult};
    case TK::kSlash: return {6, BinOpKind::kDiv};
    case TK::kDoubleSlash: return {6, BinOpKind::kFloorDiv};
    case TK::kPercent: return {6, BinOpKind::kMod};
    case TK::kAt: return {6, BinOpKind::kMatMult};
    default: return {0, BinOpKind::kAdd};
  }
}

std::optional<BinOpKind> AugAssignOf(TK kind) {
  switch (kind) {
    case TK::kPlusEqual: return BinOpKind::kAdd;
    case TK::kMinusEqual: return BinOpKind::kSub;
    case TK::kStarEqual: return BinOpKind::kMult;
    case TK::kSlashEqual: return BinOpKind::kDiv;
    case TK::kDoubleSlashEqual: return BinOpKind::kFloorDiv;
    case TK::kPercentEqual: return BinOpKind::kMod;
    case TK::kDoubleStarEqual: return BinOpKind::kPow;
    case TK::kAtEqual: return BinOpKind::kMatMult;
    case TK::kAmpEqual: return BinOpKind::kBitAnd;
    case TK::kPipeEqual: return BinOpKind::kBitOr;
    case TK::kCaretEqual: return BinOpKind::kBitXor;
    case TK::kLShiftEqual: return BinOpKind::kLShift;
    case TK::kRShiftEqual: return BinOpKind::kRShift;
    default: return std::nullopt;
  }
}

// Whether a token can begin an expression (or a starred one).
bool StartsExpr(TK kind) {
  switch (kind) {
    case TK::kName: case TK::kInt: case TK::kFloat: case TK::kString:
    case TK::kLParen: case TK::kLBracket: case TK::kLBrace:
    case TK::kMinus: case TK::kPlus: case TK::kTilde: case TK::kStar:
    case TK::kNot: case TK::kLambda: case TK::kNone: case TK::kTrue: case TK::kFalse:
    case TK::kEllipsis:
      return true;
    default:
      return false;
  }
}

bool IsUnsupportedKeyword(TK kind) {
  switch (kind) {
    case TK::kAsync: case TK::kAwait: case TK::kDel: case TK::kExcept: case TK::kFinally:
    case TK::kGlobal: case TK::kNonlocal: case TK::kRaise: case TK::kTry: case TK::kYield:
      return true;
    default:
      return false;
  }
}

TK CloserOf(TK open) {
  return open == TK::kLParen ? TK::kRParen : open == TK::kLBracket ? TK::kRBracket : TK::kRBrace;
}

// How "cannot assign to ..." names an expression.
std::string DescribeExpr(const Expr& expr) {
  switch (expr.kind) {
    case NodeKind::kCall: return "function call";
    case NodeKind::kConstant: {
      const auto& c = expr.Cast<Constant>();
      if (c.value_kind == ConstantKind::kNone) return "None";
      if (c.value_kind == ConstantKind::kBool) return c.bool_value ? "True" : "False";
      if (c.value_kind == ConstantKind::kEllipsis) return "ellipsis";
      return "literal";
    }
    case NodeKind::kCompare: return "comparison";
    case NodeKind::kIfExp: return "conditional expression";
    case NodeKind::kLambda: return "lambda";
    case NodeKind::kDict: return "dict literal";
    case NodeKind::kTuple: return "tuple";
    case NodeKind::kList: return "list";
    case NodeKind::kStarred: return "starred";
    case NodeKind::kSlice: return "slice";
    default: return "expression";
  }
}

class Parser {
 public:
  explicit Parser(SourceFilePtr source) : lexer_(std::move(source)) {}

  std::unique_ptr<Module> Run();

 private:
  // Counts recursion through nested constructs; see kMaxRecursion.
  class Nest {
   public:
    Nest(Parser* parser, const Token& at) : parser_(parser) {
      if (++parser_->depth_ > kMaxRecursion) {
        parser_->Fail(at, fmt::format("expression is nested too deeply (the limit is {} levels)", kMaxRecursion));
      }
    }
    ~Nest() { --parser_->depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser* parser_;
  };

  // --- Tokens ---------------------------------------------------------------
  // k < kLookahead.
  const Token& Peek(size_t k = 0) {
    RLX_ICHECK(k < kLookahead) << "lookahead too far";
    while (lookahead_count_ <= k) {
      lookahead_[(lookahead_head_ + lookahead_count_) % kLookahead] = lexer_.Next();
      ++lookahead_count_;
    }
    return lookahead_[(lookahead_head_ + k) % kLookahead];
  }
  TK PeekKind(size_t k = 0) { return Peek(k).kind; }
  bool Check(TK kind) { return PeekKind() == kind; }
  Pos Start() { return StartOf(Peek()); }
  Token Advance();
  bool Accept(TK kind);
  Token Expect(TK kind, std::string_view context);
  Token ExpectName(std::string_view what);
  void ExpectNewline(std::string_view context);
  Token ExpectClose(const Token& open);

  // --- Spans, nodes and errors ---------------------------------------------
  Span SpanOf(const Token& token) const { return lexer_.MakeSpan(token.loc); }
  Span SpanFrom(Pos start) const {
    return Span{lexer_.source(), start.line, start.column, last_end_.line, last_end_.column};
  }
  template <typename T>
  static std::unique_ptr<T> New() {
    return std::make_unique<T>(Span{});
  }
  template <typename T>
  std::unique_ptr<T> Finish(std::unique_ptr<T> node, Pos start) const;
  [[noreturn]] void Fail(const Token& at, const std::string& message) const { ThrowError(SpanOf(at), message); }
  [[noreturn]] void FailExpected(std::string_view what, const Token& found) const {
    Fail(found, fmt::format("expected {}, found {}", what, DescribeToken(found)));
  }
  [[noreturn]] void FailUnsupported(const Token& at) const;
  void CheckTarget(const Expr& target, bool in_sequence) const;

  // --- Statements -----------------------------------------------------------
  void ParseStatement(StmtList& out);
  void ParseSimpleLine(StmtList& out);
  StmtPtr ParseSmallStatement();
  StmtPtr ParseExprStatement();
  StmtPtr ParseKeywordOnly(TK kind);
  StmtPtr ParseReturn();
  StmtPtr ParseAssert();
  StmtPtr ParseImport();
  StmtPtr ParseImportFrom();
  Alias ParseAlias(bool dotted);
  std::string ParseDottedName(std::string_view what);
  StmtPtr ParseDecorated();
  StmtPtr ParseFunctionDef(std::vector<ExprPtr> decorators);
  StmtPtr ParseClassDef(std::vector<ExprPtr> decorators);
  std::vector<Param> ParseParams(TK end, bool annotations);
  void ParseParamName(Param& param, bool annotations);
  void CheckParamOrder(const std::vector<Param>& params) const;
  StmtPtr ParseIf();
  StmtPtr ParseFor();
  StmtPtr ParseWhile();
  StmtPtr ParseWith();
  StmtList ParseElse();
  StmtList ParseBlock(const Token& keyword);

  // --- Expressions ----------------------------------------------------------
  ExprPtr ParseTestListStar();
  ExprPtr ParseTargetList();
  ExprPtr ParseStarOrTest();
  ExprPtr ParseStarOrBitOr();
  ExprPtr ParseTest();
  ExprPtr ParseLambda();
  ExprPtr ParseBoolOp(TK token, BoolOpKind op, ExprPtr (Parser::*operand)());
  ExprPtr ParseOrTest() { return ParseBoolOp(TK::kOr, BoolOpKind::kOr, &Parser::ParseAndTest); }
  ExprPtr ParseAndTest() { return ParseBoolOp(TK::kAnd, BoolOpKind::kAnd, &Parser::ParseNotTest); }
  ExprPtr ParseNotTest();
  ExprPtr ParseComparison();
  std::optional<CmpOpKind> AcceptCompareOp();
  ExprPtr ParseBinary(int min_precedence);
  ExprPtr ParseUnary();
  ExprPtr ParsePower();
  ExprPtr ParsePrimary();
  void ParseCallArguments(const Token& open, std::vector<ExprPtr>& args, std::vector<Keyword>& keywords);
  ExprPtr ParseSubscriptIndex(const Token& open);
  ExprPtr ParseSliceItem();
  ExprPtr ParseAtom();
  ExprPtr ParseConstant(ConstantKind kind);
  ExprPtr ParseInt();
  ExprPtr ParseFloat();
  ExprPtr ParseStrings();
  ExprPtr ParseParenthesized();
  ExprPtr ParseList();
  ExprPtr ParseDict();

  static constexpr size_t kLookahead = 4;

  Lexer lexer_;
  std::array<Token, kLookahead> lookahead_;  // A ring buffer.
  size_t lookahead_head_ = 0;
  size_t lookahead_count_ = 0;
  Pos last_end_{1, 1};
  int depth_ = 0;
};

// ---------------------------------------------------------------------------
// Tokens.

Token Parser::Advance() {
  Peek();
  Token token = std::move(lookahead_[lookahead_head_]);
  lookahead_head_ = (lookahead_head_ + 1) % kLookahead;
  --lookahead_count_;
  if (token.kind != TK::kNewline && token.kind != TK::kIndent && token.kind != TK::kDedent &&
      token.kind != TK::kEndOfFile) {
    last_end_ = Pos{token.loc.end_line, token.loc.end_column};
  }
  return token;
}

bool Parser::Accept(TK kind) {
  if (!Check(kind)) return false;
  Advance();
  return true;
}

// "expected ':' after the function signature, found end of line"
Token Parser::Expect(TK kind, std::string_view context) {
  if (Check(kind)) return Advance();
  std::string what = fmt::format("'{}'", TokenKindName(kind));
  if (!context.empty()) what += fmt::format(" {}", context);
  FailExpected(what, Peek());
}

Token Parser::ExpectName(std::string_view what) {
  if (!Check(TK::kName)) FailExpected(what, Peek());
  return Advance();
}

void Parser::ExpectNewline(std::string_view context) {
  if (!Check(TK::kNewline)) FailExpected(fmt::format("end of line {}", context), Peek());
  Advance();
}

// "expected ')' to close '(' at 3:14, found end of file", with a note at '('.
Token Parser::ExpectClose(const Token& open) {
  TK closer = CloserOf(open.kind);
  if (Check(closer)) return Advance();
  const Token& found = Peek();
  std::string message =
      fmt::format("expected '{}' to close '{}' at {}:{}, found {}", TokenKindName(closer),
                  TokenKindName(open.kind), open.loc.line, open.loc.column, DescribeToken(found));
  switch (found.kind) {
    case TK::kName: case TK::kInt: case TK::kFloat: case TK::kString:
    case TK::kNone: case TK::kTrue: case TK::kFalse:
      message += " (missing ','?)";
      break;
    default:
      break;
  }
  Diagnostic diag{Severity::kError, SpanOf(found), message,
                  {DiagnosticNote{SpanOf(open), fmt::format("'{}' opened here", TokenKindName(open.kind))}}};
  throw CompileError(std::move(diag));
}

// ---------------------------------------------------------------------------
// Nodes and errors.

template <typename T>
std::unique_ptr<T> Parser::Finish(std::unique_ptr<T> node, Pos start) const {
  node->span = SpanFrom(start);
  int height = 0;
  ForEachChild(*node, [&](const Node& child) { height = std::max(height, child.height); });
  node->height = height + 1;
  if (node->height > kMaxAstDepth) {
    ThrowError(node->span, fmt::format("expression or statement is nested too deeply (more than {} levels)",
                                       kMaxAstDepth));
  }
  return node;
}

void Parser::FailUnsupported(const Token& at) const {
  bool is_expression = at.kind == TK::kYield || at.kind == TK::kAwait;
  Fail(at, fmt::format("'{}' {} not supported", TokenKindName(at.kind),
                       is_expression ? "expressions are" : "statements are"));
}

// Targets of =, for and with: names, attributes, subscripts, and tuples or
// lists of targets with at most one starred element.
void Parser::CheckTarget(const Expr& target, bool in_sequence) const {
  switch (target.kind) {
    case NodeKind::kName:
    case NodeKind::kAttribute:
    case NodeKind::kSubscript:
      return;
    case NodeKind::kStarred:
      if (!in_sequence) ThrowError(target.span, "a starred assignment target must be in a list or tuple");
      CheckTarget(*target.Cast<Starred>().value, false);
      return;
    case NodeKind::kTuple:
    case NodeKind::kList: {
      const auto& elts = target.Is<Tuple>() ? target.Cast<Tuple>().elts : target.Cast<List>().elts;
      int starred = 0;
      for (const ExprPtr& elt : elts) {
        if (elt->Is<Starred>() && ++starred > 1) ThrowError(elt->span, "multiple starred expressions in assignment");
        CheckTarget(*elt, true);
      }
      return;
    }
    default:
      ThrowError(target.span, fmt::format("cannot assign to {}", DescribeExpr(target)));
  }
}

// ---------------------------------------------------------------------------
// Statements.

std::unique_ptr<Module> Parser::Run() {
  auto module = New<Module>();
  while (!Check(TK::kEndOfFile)) ParseStatement(module->body);
  Loc end = Peek().loc;
  last_end_ = Pos{end.end_line, end.end_column};
  return Finish(std::move(module), Pos{1, 1});
}

void Parser::ParseStatement(StmtList& out) {
  switch (PeekKind()) {
    case TK::kIndent: Fail(Peek(), "unexpected indent");
    case TK::kAt:
    case TK::kDef:
    case TK::kClass: out.push_back(ParseDecorated()); return;
    case TK::kIf: out.push_back(ParseIf()); return;
    case TK::kFor: out.push_back(ParseFor()); return;
    case TK::kWhile: out.push_back(ParseWhile()); return;
    case TK::kWith: out.push_back(ParseWith()); return;
    case TK::kElif: Fail(Peek(), "'elif' does not follow an 'if' block at the same indentation");
    case TK::kElse: Fail(Peek(), "'else' does not follow an 'if', 'for' or 'while' block at the same indentation");
    default: ParseSimpleLine(out); return;
  }
}

// small_stmt (';' small_stmt)* [';'] NEWLINE
void Parser::ParseSimpleLine(StmtList& out) {
  for (;;) {
    out.push_back(ParseSmallStatement());
    if (!Accept(TK::kSemicolon) || Check(TK::kNewline)) break;
  }
  ExpectNewline("after the statement");
}

StmtPtr Parser::ParseSmallStatement() {
  const Token& token = Peek();
  switch (token.kind) {
    case TK::kPass:
    case TK::kBreak:
    case TK::kContinue: return ParseKeywordOnly(token.kind);
    case TK::kReturn: return ParseReturn();
    case TK::kAssert: return ParseAssert();
    case TK::kImport: return ParseImport();
    case TK::kFrom: return ParseImportFrom();
    case TK::kAt: Fail(token, "a decorator must start on its own line");
    case TK::kDef: case TK::kClass: case TK::kIf: case TK::kFor: case TK::kWhile: case TK::kWith:
    case TK::kElif: case TK::kElse:
      Fail(token, fmt::format("'{}' must start on its own line", TokenKindName(token.kind)));
    default:
      if (IsUnsupportedKeyword(token.kind)) FailUnsupported(token);
      return ParseExprStatement();
  }
}

StmtPtr Parser::ParseKeywordOnly(TK kind) {
  Pos start = StartOf(Advance());
  if (kind == TK::kPass) return Finish(New<Pass>(), start);
  if (kind == TK::kBreak) return Finish(New<Break>(), start);
  return Finish(New<Continue>(), start);
}

// Expression statement, =, op= or annotated assignment.
StmtPtr Parser::ParseExprStatement() {
  Pos start = Start();
  ExprPtr first = ParseTestListStar();
  if (Accept(TK::kColon)) {
    if (first->Is<Tuple>() || first->Is<List>()) {
      ThrowError(first->span, fmt::format("only a single target (not a {}) can be annotated", DescribeExpr(*first)));
    }
    if (!first->Is<Name>() && !first->Is<Attribute>() && !first->Is<Subscript>()) {
      ThrowError(first->span, fmt::format("illegal target for annotation: cannot annotate {}", DescribeExpr(*first)));
    }
    auto node = New<AnnAssign>();
    node->target = std::move(first);
    node->annotation = ParseTest();
    if (Accept(TK::kAssign)) node->value = ParseTestListStar();
    return Finish(std::move(node), start);
  }
  if (std::optional<BinOpKind> op = AugAssignOf(PeekKind())) {
    Token op_token = Advance();
    if (!first->Is<Name>() && !first->Is<Attribute>() && !first->Is<Subscript>()) {
      ThrowError(first->span, fmt::format("'{}' is an illegal target for augmented assignment '{}'",
                                          DescribeExpr(*first), op_token.text));
    }
    auto node = New<AugAssign>();
    node->target = std::move(first);
    node->op = *op;
    node->value = ParseTestListStar();
    return Finish(std::move(node), start);
  }
  if (Accept(TK::kAssign)) {
    CheckTarget(*first, false);
    auto node = New<Assign>();
    node->target = std::move(first);
    node->value = ParseTestListStar();
    if (Check(TK::kAssign)) {
      Fail(Peek(), "chained assignment (a = b = c) is not supported; use separate assignments");
    }
    return Finish(std::move(node), start);
  }
  if (first->Is<Starred>()) ThrowError(first->span, "cannot use a starred expression here");
  auto node = New<ExprStmt>();
  node->value = std::move(first);
  return Finish(std::move(node), start);
}

StmtPtr Parser::ParseReturn() {
  Pos start = StartOf(Advance());
  auto node = New<Return>();
  if (StartsExpr(PeekKind())) node->value = ParseTestListStar();
  return Finish(std::move(node), start);
}

StmtPtr Parser::ParseAssert() {
  Pos start = StartOf(Advance());
  auto node = New<Assert>();
  node->test = ParseTest();
  if (Accept(TK::kComma)) node->msg = ParseTest();
  return Finish(std::move(node), start);
}

std::string Parser::ParseDottedName(std::string_view what) {
  std::string name(ExpectName(what).text);
  while (Accept(TK::kDot)) {
    name += '.';
    name += ExpectName("a name after '.'").text;
  }
  return name;
}

Alias Parser::ParseAlias(bool dotted) {
  Pos start = Start();
  Alias alias;
  alias.name = dotted ? ParseDottedName("a module name") : std::string(ExpectName("a name to import").text);
  if (Accept(TK::kAs)) alias.asname = ExpectName("a name after 'as'").text;
  alias.span = SpanFrom(start);
  return alias;
}

// import a.b as c, d
StmtPtr Parser::ParseImport() {
  Pos start = StartOf(Advance());
  auto node = New<Import>();
  do {
    node->names.push_back(ParseAlias(/*dotted=*/true));
  } while (Accept(TK::kComma));
  return Finish(std::move(node), start);
}

// from ..a.b import (x as y, z) | *
StmtPtr Parser::ParseImportFrom() {
  Pos start = StartOf(Advance());
  auto node = New<ImportFrom>();
  while (Check(TK::kDot) || Check(TK::kEllipsis)) node->level += Advance().kind == TK::kDot ? 1 : 3;
  if (node->level == 0 || Check(TK::kName)) node->module = ParseDottedName("a module name after 'from'");
  Expect(TK::kImport, "after the module name");
  if (Check(TK::kStar)) {
    Token star = Advance();
    node->names.push_back(Alias{"*", "", SpanOf(star)});
  } else if (Check(TK::kLParen)) {
    Token open = Advance();
    node->names.push_back(ParseAlias(false));
    while (Accept(TK::kComma) && !Check(TK::kRParen)) node->names.push_back(ParseAlias(false));
    ExpectClose(open);
  } else {
    do {
      node->names.push_back(ParseAlias(false));
    } while (Accept(TK::kComma));
  }
  return Finish(std::move(node), start);
}

StmtPtr Parser::ParseDecorated() {
  std::vector<ExprPtr> decorators;
  while (Accept(TK::kAt)) {
    decorators.push_back(ParseTest());
    ExpectNewline("after the decorator");
  }
  if (Check(TK::kDef)) return ParseFunctionDef(std::move(decorators));
  if (Check(TK::kClass)) return ParseClassDef(std::move(decorators));
  FailExpected("'def' or 'class' after the decorator", Peek());
}

StmtPtr Parser::ParseFunctionDef(std::vector<ExprPtr> decorators) {
  Token keyword = Advance();
  auto node = New<FunctionDef>();
  node->decorators = std::move(decorators);
  Token name = ExpectName("a function name after 'def'");
  node->name = name.text;
  node->name_span = SpanOf(name);
  Token open = Expect(TK::kLParen, "after the function name");
  node->params = ParseParams(TK::kRParen, /*annotations=*/true);
  ExpectClose(open);
  if (Accept(TK::kArrow)) node->returns = ParseTest();
  Expect(TK::kColon, "after the function signature");
  node->body = ParseBlock(keyword);
  return Finish(std::move(node), StartOf(keyword));
}

StmtPtr Parser::ParseClassDef(std::vector<ExprPtr> decorators) {
  Token keyword = Advance();
  auto node = New<ClassDef>();
  node->decorators = std::move(decorators);
  Token name = ExpectName("a class name after 'class'");
  node->name = name.text;
  node->name_span = SpanOf(name);
  if (Check(TK::kLParen)) {
    Token open = Advance();
    ParseCallArguments(open, node->bases, node->keywords);
  }
  Expect(TK::kColon, "after the class name");
  node->body = ParseBlock(keyword);
  return Finish(std::move(node), StartOf(keyword));
}

// Parameters of a def (end ')', annotations allowed) or lambda (end ':').
std::vector<Param> Parser::ParseParams(TK end, bool annotations) {
  std::vector<Param> params;
  while (!Check(end)) {
    Pos start = Start();
    Param param;
    if (Accept(TK::kStar)) {
      param.kind = Check(TK::kName) ? ParamKind::kVarArgs : ParamKind::kKwOnlyMarker;
      if (param.kind == ParamKind::kVarArgs) ParseParamName(param, annotations);
    } else if (Accept(TK::kDoubleStar)) {
      param.kind = ParamKind::kKwArgs;
      ParseParamName(param, annotations);
    } else if (Accept(TK::kSlash)) {
      param.kind = ParamKind::kPosOnlyMarker;
    } else {
      ParseParamName(param, annotations);
      if (Accept(TK::kAssign)) param.default_value = ParseTest();
    }
    param.span = SpanFrom(start);
    params.push_back(std::move(param));
    if (!Accept(TK::kComma)) break;
  }
  CheckParamOrder(params);
  return params;
}

// Python's rules on the order of parameters, checked after parsing them.
void Parser::CheckParamOrder(const std::vector<Param>& params) const {
  std::unordered_set<std::string> names;
  bool seen_default = false;
  bool seen_star = false;
  bool seen_slash = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& param = params[i];
    bool last = i + 1 == params.size();
    switch (param.kind) {
      case ParamKind::kRegular:
        if (param.default_value) {
          seen_default = true;
        } else if (seen_default && !seen_star) {
          ThrowError(param.name_span, "parameter without a default follows parameter with a default");
        }
        break;
      case ParamKind::kVarArgs:
      case ParamKind::kKwOnlyMarker:
        if (seen_star) ThrowError(param.span, "'*' may appear only once in a parameter list");
        seen_star = true;
        if (param.kind == ParamKind::kKwOnlyMarker && (last || params[i + 1].kind != ParamKind::kRegular)) {
          ThrowError(param.span, "named parameters must follow a bare '*'");
        }
        break;
      case ParamKind::kPosOnlyMarker:
        if (seen_slash) ThrowError(param.span, "'/' may appear only once in a parameter list");
        if (seen_star) ThrowError(param.span, "'/' must come before '*'");
        if (i == 0) ThrowError(param.span, "at least one parameter must precede '/'");
        seen_slash = true;
        break;
      case ParamKind::kKwArgs:
        if (!last) ThrowError(params[i + 1].span, fmt::format("no parameter may follow '**{}'", param.name));
        break;
    }
    if (!param.name.empty() && !names.insert(param.name).second) {
      ThrowError(param.name_span, fmt::format("duplicate parameter '{}'", param.name));
    }
  }
}

void Parser::ParseParamName(Param& param, bool annotations) {
  Token name = ExpectName("a parameter name");
  param.name = name.text;
  param.name_span = SpanOf(name);
  if (annotations && Accept(TK::kColon)) param.annotation = ParseTest();
}

// if/elif/else. The elif chain is collected in a loop and linked afterwards,
// so that a long chain does not recurse.
StmtPtr Parser::ParseIf() {
  std::vector<std::pair<std::unique_ptr<If>, Pos>> chain;
  do {
    Token keyword = Advance();
    auto node = New<If>();
    node->test = ParseTest();
    Expect(TK::kColon, fmt::format("after the '{}' condition", keyword.text));
    node->body = ParseBlock(keyword);
    chain.emplace_back(std::move(node), StartOf(keyword));
  } while (Check(TK::kElif));
  StmtList orelse;
  if (Check(TK::kElse)) orelse = ParseElse();
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    it->first->orelse = std::move(orelse);
    StmtPtr done = Finish(std::move(it->first), it->second);
    orelse = StmtList();
    orelse.push_back(std::move(done));
  }
  return std::move(orelse.front());
}

StmtList Parser::ParseElse() {
  Token keyword = Advance();
  Expect(TK::kColon, "after 'else'");
  return ParseBlock(keyword);
}

StmtPtr Parser::ParseFor() {
  Token keyword = Advance();
  auto node = New<For>();
  node->target = ParseTargetList();
  Expect(TK::kIn, "after the 'for' target");
  node->iter = ParseTestListStar();
  Expect(TK::kColon, "after the 'for' iterable");
  node->body = ParseBlock(keyword);
  if (Check(TK::kElse)) node->orelse = ParseElse();
  return Finish(std::move(node), StartOf(keyword));
}

StmtPtr Parser::ParseWhile() {
  Token keyword = Advance();
  auto node = New<While>();
  node->test = ParseTest();
  Expect(TK::kColon, "after the 'while' condition");
  node->body = ParseBlock(keyword);
  if (Check(TK::kElse)) node->orelse = ParseElse();
  return Finish(std::move(node), StartOf(keyword));
}

StmtPtr Parser::ParseWith() {
  Token keyword = Advance();
  auto node = New<With>();
  do {
    Pos start = Start();
    WithItem item;
    item.context_expr = ParseTest();
    if (Accept(TK::kAs)) {
      item.optional_vars = ParseStarOrBitOr();
      CheckTarget(*item.optional_vars, false);
    }
    item.span = SpanFrom(start);
    node->items.push_back(std::move(item));
  } while (Accept(TK::kComma));
  Expect(TK::kColon, "after the 'with' items");
  node->body = ParseBlock(keyword);
  return Finish(std::move(node), StartOf(keyword));
}

// The body after `keyword ... :`: statements on the same line, or NEWLINE
// INDENT statements DEDENT.
StmtList Parser::ParseBlock(const Token& keyword) {
  StmtList body;
  if (!Check(TK::kNewline)) {
    ParseSimpleLine(body);
    return body;
  }
  Advance();
  if (!Check(TK::kIndent)) {
    Fail(Peek(), fmt::format("expected an indented block after '{}' on line {}, found {}", keyword.text,
                             keyword.loc.line, DescribeToken(Peek())));
  }
  Advance();
  while (!Check(TK::kDedent) && !Check(TK::kEndOfFile)) ParseStatement(body);
  Accept(TK::kDedent);
  return body;
}

// ---------------------------------------------------------------------------
// Expressions.

// star_expressions: a, *b, c  (a Tuple when there is a comma).
ExprPtr Parser::ParseTestListStar() {
  Pos start = Start();
  ExprPtr first = ParseStarOrTest();
  if (!Check(TK::kComma)) return first;
  auto tuple = New<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (Accept(TK::kComma) && StartsExpr(PeekKind())) tuple->elts.push_back(ParseStarOrTest());
  return Finish(std::move(tuple), start);
}

// The target of `for`: a, (b, c), *d  (stops before `in`).
ExprPtr Parser::ParseTargetList() {
  Pos start = Start();
  ExprPtr first = ParseStarOrBitOr();
  if (!Check(TK::kComma)) {
    CheckTarget(*first, false);
    return first;
  }
  auto tuple = New<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (Accept(TK::kComma) && StartsExpr(PeekKind())) tuple->elts.push_back(ParseStarOrBitOr());
  ExprPtr target = Finish(std::move(tuple), start);
  CheckTarget(*target, false);
  return target;
}

ExprPtr Parser::ParseStarOrTest() {
  if (!Check(TK::kStar)) return ParseTest();
  return ParseStarOrBitOr();
}

ExprPtr Parser::ParseStarOrBitOr() {
  if (!Check(TK::kStar)) return ParseBinary(1);
  Token star = Advance();
  Nest nest(this, star);
  auto node = New<Starred>();
  node->value = ParseBinary(1);
  return Finish(std::move(node), StartOf(star));
}

// test: lambda | or_test ['if' or_test 'else' test]
ExprPtr Parser::ParseTest() {
  if (Check(TK::kLambda)) return ParseLambda();
  Pos start = Start();
  ExprPtr body = ParseOrTest();
  if (!Check(TK::kIf)) return body;
  Nest nest(this, Advance());
  auto node = New<IfExp>();
  node->body = std::move(body);
  node->test = ParseOrTest();
  Expect(TK::kElse, "in the conditional expression");
  node->orelse = ParseTest();
  return Finish(std::move(node), start);
}

ExprPtr Parser::ParseLambda() {
  Token keyword = Advance();
  Nest nest(this, keyword);
  auto node = New<Lambda>();
  node->params = ParseParams(TK::kColon, /*annotations=*/false);
  Expect(TK::kColon, "after the lambda parameters");
  node->body = ParseTest();
  return Finish(std::move(node), StartOf(keyword));
}

// `a or b or c` / `a and b and c`: one BoolOp with all operands.
ExprPtr Parser::ParseBoolOp(TK token, BoolOpKind op, ExprPtr (Parser::*operand)()) {
  Pos start = Start();
  ExprPtr first = (this->*operand)();
  if (!Check(token)) return first;
  auto node = New<BoolOp>();
  node->op = op;
  node->values.push_back(std::move(first));
  while (Accept(token)) node->values.push_back((this->*operand)());
  return Finish(std::move(node), start);
}

ExprPtr Parser::ParseNotTest() {
  if (!Check(TK::kNot)) return ParseComparison();
  Token keyword = Advance();
  Nest nest(this, keyword);
  auto node = New<UnaryOp>();
  node->op = UnaryOpKind::kNot;
  node->operand = ParseNotTest();
  return Finish(std::move(node), StartOf(keyword));
}

// a < b <= c: one Compare.
ExprPtr Parser::ParseComparison() {
  Pos start = Start();
  ExprPtr left = ParseBinary(1);
  std::unique_ptr<Compare> node;
  while (std::optional<CmpOpKind> op = AcceptCompareOp()) {
    if (!node) {
      node = New<Compare>();
      node->left = std::move(left);
    }
    node->ops.push_back(*op);
    node->comparators.push_back(ParseBinary(1));
  }
  if (!node) return left;
  return Finish(std::move(node), start);
}

std::optional<CmpOpKind> Parser::AcceptCompareOp() {
  std::optional<CmpOpKind> op;
  switch (PeekKind()) {
    case TK::kLess: op = CmpOpKind::kLt; break;
    case TK::kLessEqual: op = CmpOpKind::kLtE; break;
    case TK::kGreater: op = CmpOpKind::kGt; break;
    case TK::kGreaterEqual: op = CmpOpKind::kGtE; break;
    case TK::kEqEqual: op = CmpOpKind::kEq; break;
    case TK::kNotEqual: op = CmpOpKind::kNotEq; break;
    case TK::kIn: op = CmpOpKind::kIn; break;
    case TK::kIs:
      Advance();
      return Accept(TK::kNot) ? CmpOpKind::kIsNot : CmpOpKind::kIs;
    case TK::kNot:
      if (PeekKind(1) != TK::kIn) return std::nullopt;
      Advance();
      Advance();
      return CmpOpKind::kNotIn;
    default:
      return std::nullopt;
  }
  Advance();
  return op;
}

// The levels | ^ & (<< >>) (+ -) (* / // % @), left-associative, by
// precedence climbing.
ExprPtr Parser::ParseBinary(int min_precedence) {
  Pos start = Start();
  ExprPtr left = ParseUnary();
  for (;;) {
    BinaryInfo info = BinaryOf(PeekKind());
    if (info.precedence == 0 || info.precedence < min_precedence) return left;
    Advance();
    ExprPtr right = ParseBinary(info.precedence + 1);
    auto node = New<BinOp>();
    node->op = info.op;
    node->left = std::move(left);
    node->right = std::move(right);
    left = Finish(std::move(node), start);
  }
}

// factor: ('+' | '-' | '~') factor | power
ExprPtr Parser::ParseUnary() {
  UnaryOpKind op;
  switch (PeekKind()) {
    case TK::kMinus: op = UnaryOpKind::kUSub; break;
    case TK::kPlus: op = UnaryOpKind::kUAdd; break;
    case TK::kTilde: op = UnaryOpKind::kInvert; break;
    default: return ParsePower();
  }
  Token token = Advance();
  Nest nest(this, token);
  auto node = New<UnaryOp>();
  node->op = op;
  node->operand = ParseUnary();
  return Finish(std::move(node), StartOf(token));
}

// power: primary ['**' factor]  (so -x ** 2 is -(x ** 2); ** is right-assoc.)
ExprPtr Parser::ParsePower() {
  Pos start = Start();
  ExprPtr base = ParsePrimary();
  if (!Check(TK::kDoubleStar)) return base;
  Nest nest(this, Advance());
  auto node = New<BinOp>();
  node->op = BinOpKind::kPow;
  node->left = std::move(base);
  node->right = ParseUnary();
  return Finish(std::move(node), start);
}

// atom followed by .name, (args) and [index] trailers.
ExprPtr Parser::ParsePrimary() {
  Pos start = Start();
  ExprPtr expr = ParseAtom();
  for (;;) {
    switch (PeekKind()) {
      case TK::kDot: {
        Advance();
        Token name = ExpectName("an attribute name after '.'");
        auto node = New<Attribute>();
        node->value = std::move(expr);
        node->attr = name.text;
        node->attr_span = SpanOf(name);
        expr = Finish(std::move(node), start);
        break;
      }
      case TK::kLParen: {
        Token open = Advance();
        Nest nest(this, open);
        auto node = New<Call>();
        node->func = std::move(expr);
        ParseCallArguments(open, node->args, node->keywords);
        expr = Finish(std::move(node), start);
        break;
      }
      case TK::kLBracket: {
        Token open = Advance();
        Nest nest(this, open);
        auto node = New<Subscript>();
        node->value = std::move(expr);
        node->index = ParseSubscriptIndex(open);
        expr = Finish(std::move(node), start);
        break;
      }
      default:
        return expr;
    }
  }
}

// After '(' of a call or class header: args, *args, name=value, **kwargs.
void Parser::ParseCallArguments(const Token& open, std::vector<ExprPtr>& args, std::vector<Keyword>& keywords) {
  std::unordered_set<std::string> names;
  while (!Check(TK::kRParen)) {
    Pos start = Start();
    if (Check(TK::kStar)) {
      Token star = Advance();
      auto node = New<Starred>();
      node->value = ParseTest();
      args.push_back(Finish(std::move(node), StartOf(star)));
    } else if (Accept(TK::kDoubleStar)) {
      Keyword keyword;
      keyword.value = ParseTest();
      keyword.span = SpanFrom(start);
      keywords.push_back(std::move(keyword));
    } else if (Check(TK::kName) && PeekKind(1) == TK::kAssign) {
      Token name = Advance();
      Advance();
      Keyword keyword;
      keyword.name = name.text;
      keyword.name_span = SpanOf(name);
      keyword.value = ParseTest();
      keyword.span = SpanFrom(start);
      if (!names.insert(keyword.name).second) {
        ThrowError(keyword.name_span, fmt::format("keyword argument repeated: '{}'", keyword.name));
      }
      keywords.push_back(std::move(keyword));
    } else {
      ExprPtr arg = ParseTest();
      if (Check(TK::kAssign)) {
        ThrowError(arg->span, "expected a name before '=' in a keyword argument, found " + DescribeExpr(*arg) +
                                  " (did you mean '=='?)");
      }
      if (Check(TK::kFor)) Fail(Peek(), "comprehensions are not supported");
      if (!keywords.empty()) ThrowError(arg->span, "positional argument follows keyword argument");
      args.push_back(std::move(arg));
    }
    if (!Accept(TK::kComma)) break;
  }
  ExpectClose(open);
}

// After '[': one index or slice, or a Tuple of them (`a[i, j]`, `a[:, 0]`).
ExprPtr Parser::ParseSubscriptIndex(const Token& open) {
  if (Check(TK::kRBracket)) FailExpected("an index or slice", Peek());
  Pos start = Start();
  std::vector<ExprPtr> elts;
  bool trailing_comma = false;
  for (;;) {
    elts.push_back(ParseSliceItem());
    trailing_comma = Accept(TK::kComma);
    if (!trailing_comma || Check(TK::kRBracket)) break;
  }
  ExprPtr index;
  if (elts.size() == 1 && !trailing_comma) {
    index = std::move(elts.front());
  } else {
    auto tuple = New<Tuple>();
    tuple->elts = std::move(elts);
    index = Finish(std::move(tuple), start);
  }
  ExpectClose(open);
  return index;
}

// An index `e` or a slice `lower:upper:step` with any part optional.
ExprPtr Parser::ParseSliceItem() {
  Pos start = Start();
  ExprPtr lower;
  if (!Check(TK::kColon)) {
    lower = ParseStarOrTest();
    if (!Check(TK::kColon)) return lower;
    if (lower->Is<Starred>()) ThrowError(lower->span, "cannot use a starred expression in a slice");
  }
  Advance();
  auto slice = New<Slice>();
  slice->lower = std::move(lower);
  if (StartsExpr(PeekKind())) slice->upper = ParseTest();
  if (Accept(TK::kColon) && StartsExpr(PeekKind())) slice->step = ParseTest();
  return Finish(std::move(slice), start);
}

ExprPtr Parser::ParseAtom() {
  const Token& token = Peek();
  switch (token.kind) {
    case TK::kName: {
      Token name = Advance();
      auto node = New<Name>();
      node->id = name.text;
      return Finish(std::move(node), StartOf(name));
    }
    case TK::kInt: return ParseInt();
    case TK::kFloat: return ParseFloat();
    case TK::kString: return ParseStrings();
    case TK::kNone: return ParseConstant(ConstantKind::kNone);
    case TK::kTrue:
    case TK::kFalse: return ParseConstant(ConstantKind::kBool);
    case TK::kEllipsis: return ParseConstant(ConstantKind::kEllipsis);
    case TK::kLParen: return ParseParenthesized();
    case TK::kLBracket: return ParseList();
    case TK::kLBrace: return ParseDict();
    default:
      if (IsUnsupportedKeyword(token.kind)) FailUnsupported(token);
      FailExpected("an expression", token);
  }
}

ExprPtr Parser::ParseConstant(ConstantKind kind) {
  Token token = Advance();
  auto node = New<Constant>();
  node->value_kind = kind;
  node->bool_value = token.kind == TK::kTrue;
  node->text = token.text;
  return Finish(std::move(node), StartOf(token));
}

ExprPtr Parser::ParseInt() {
  Token token = Advance();
  std::string_view digits = token.text;
  uint64_t radix = 10;
  if (digits.size() > 2 && digits[0] == '0' && ((digits[1] | 0x20) == 'x' || (digits[1] | 0x20) == 'o' ||
                                                (digits[1] | 0x20) == 'b')) {
    int letter = digits[1] | 0x20;
    radix = letter == 'x' ? 16 : letter == 'o' ? 8 : 2;
    digits.remove_prefix(2);
  }
  uint64_t value = 0;
  bool wrapped = false;
  for (char c : digits) {
    if (c == '_') continue;
    uint64_t digit = static_cast<uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    wrapped |= __builtin_mul_overflow(value, radix, &value);
    wrapped |= __builtin_add_overflow(value, digit, &value);
  }
  auto node = New<Constant>();
  node->value_kind = ConstantKind::kInt;
  node->int_value = static_cast<int64_t>(value);
  node->int_overflow = wrapped || value > static_cast<uint64_t>(INT64_MAX);
  node->text = token.text;
  return Finish(std::move(node), StartOf(token));
}

ExprPtr Parser::ParseFloat() {
  Token token = Advance();
  std::string digits;
  for (char c : token.text) {
    if (c != '_') digits += c;
  }
  double value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    value = std::strtod(digits.c_str(), nullptr);  // Out of range: inf or 0.
  }
  auto node = New<Constant>();
  node->value_kind = ConstantKind::kFloat;
  node->float_value = value;
  node->text = token.text;
  return Finish(std::move(node), StartOf(token));
}

// Adjacent string literals concatenate: "a" 'b' is "ab".
ExprPtr Parser::ParseStrings() {
  Token first = Advance();
  auto node = New<Constant>();
  node->value_kind = ConstantKind::kString;
  node->string_value = std::move(first.value);
  std::string_view last = first.text;
  while (Check(TK::kString)) {
    Token next = Advance();
    node->string_value += next.value;
    last = next.text;
  }
  node->text = std::string(first.text.data(), last.data() + last.size());
  return Finish(std::move(node), StartOf(first));
}

// (), (e), (e,), (a, *b, c)
ExprPtr Parser::ParseParenthesized() {
  Token open = Advance();
  Nest nest(this, open);
  auto tuple = New<Tuple>();
  tuple->parenthesized = true;
  if (Check(TK::kRParen)) {
    Advance();
    return Finish(std::move(tuple), StartOf(open));
  }
  ExprPtr first = ParseStarOrTest();
  if (Check(TK::kFor)) Fail(Peek(), "comprehensions are not supported");
  if (!Check(TK::kComma)) {
    ExpectClose(open);
    if (first->Is<Starred>()) ThrowError(first->span, "cannot use a starred expression here");
    return first;
  }
  tuple->elts.push_back(std::move(first));
  while (Accept(TK::kComma) && !Check(TK::kRParen)) tuple->elts.push_back(ParseStarOrTest());
  ExpectClose(open);
  return Finish(std::move(tuple), StartOf(open));
}

ExprPtr Parser::ParseList() {
  Token open = Advance();
  Nest nest(this, open);
  auto list = New<List>();
  while (!Check(TK::kRBracket)) {
    list->elts.push_back(ParseStarOrTest());
    if (Check(TK::kFor)) Fail(Peek(), "comprehensions are not supported");
    if (!Accept(TK::kComma)) break;
  }
  ExpectClose(open);
  return Finish(std::move(list), StartOf(open));
}

// {k: v, **d}; set displays are rejected.
ExprPtr Parser::ParseDict() {
  Token open = Advance();
  Nest nest(this, open);
  auto dict = New<Dict>();
  while (!Check(TK::kRBrace)) {
    if (Accept(TK::kDoubleStar)) {
      dict->keys.push_back(nullptr);
      dict->values.push_back(ParseBinary(1));
    } else {
      ExprPtr key = ParseTest();
      if (Check(TK::kFor)) Fail(Peek(), "comprehensions are not supported");
      if (dict->keys.empty() && (Check(TK::kComma) || Check(TK::kRBrace))) {
        Fail(Peek(), "expected ':' after the dict key (set displays are not supported), found " +
                         DescribeToken(Peek()));
      }
      Expect(TK::kColon, "after the dict key");
      dict->keys.push_back(std::move(key));
      dict->values.push_back(ParseTest());
      if (Check(TK::kFor)) Fail(Peek(), "comprehensions are not supported");
    }
    if (!Accept(TK::kComma)) break;
  }
  ExpectClose(open);
  return Finish(std::move(dict), StartOf(open));
}

}  // namespace

std::unique_ptr<Module> ParsePython(SourceFilePtr source) {
  RLX_ICHECK(source != nullptr) << "ParsePython needs a source file";
  return Parser(std::move(source)).Run();
}

}  // namespace rlx::py
