// Tests for the Python lexer and parser (rlx/text/py_ast.h).
//
// Most tests compare py::Dump output, which is compact and shows the tree
// shape (and so precedence) directly. Span tests look up specific nodes;
// error tests check the message text and the line/column it points at. The
// robustness tests feed garbage and mutated programs and only require that
// parsing either succeeds or throws CompileError.
#include "rlx/text/py_ast.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <random>
#include <string>

#include "../../../src/text/py_lexer.h"
#include "rlx/support/diagnostic.h"

namespace rlx::py {
namespace {

SourceFilePtr Source(std::string text) { return std::make_shared<SourceFile>("test.py", std::move(text)); }

std::unique_ptr<Module> Parse(const std::string& text) { return ParsePython(Source(text)); }

// The statements of `text`, dumped and separated by spaces.
std::string S(const std::string& text) {
  std::unique_ptr<Module> module = Parse(text);
  std::string out;
  for (const StmtPtr& stmt : module->body) {
    if (!out.empty()) out += ' ';
    out += Dump(*stmt);
  }
  return out;
}

// The dump of one expression.
std::string E(const std::string& expr) {
  std::unique_ptr<Module> module = Parse(expr + "\n");
  EXPECT_EQ(module->body.size(), 1u);
  return Dump(*module->body.at(0)->Cast<ExprStmt>().value);
}

// The tokens of `text` as "KIND(text) KIND ...".
std::string Lex(const std::string& text) {
  SourceFilePtr source = Source(text);  // Token::text points into it.
  std::string out;
  for (const Token& token : Tokenize(source)) {
    if (!out.empty()) out += ' ';
    out += TokenKindName(token.kind);
    if (token.kind == TokenKind::kName || token.kind == TokenKind::kInt || token.kind == TokenKind::kFloat ||
        token.kind == TokenKind::kString) {
      out += "(" + std::string(token.text) + ")";
    }
  }
  return out;
}

struct Error {
  std::string message;
  int line = 0;
  int column = 0;
  std::vector<DiagnosticNote> notes;
  std::string rendered;
};

Error ParseError(const std::string& text) {
  try {
    Parse(text);
  } catch (const CompileError& error) {
    const Diagnostic& diag = error.diagnostic();
    return Error{diag.message, diag.span.line, diag.span.column, diag.notes, error.what()};
  }
  ADD_FAILURE() << "no error for: " << text;
  return {};
}

// Where a span starts and ends, "L:C-L:C".
std::string Where(const Span& span) {
  return std::to_string(span.line) + ":" + std::to_string(span.column) + "-" + std::to_string(span.end_line) + ":" +
         std::to_string(span.end_column);
}

// ---------------------------------------------------------------------------
// Lexer.

TEST(PyLexerTest, SimpleTokens) {
  EXPECT_EQ(Lex("x = a.b(1, 2.5) + 'hi'"),
            "NAME(x) = NAME(a) . NAME(b) ( INT(1) , FLOAT(2.5) ) + STRING('hi') NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, IndentAndDedent) {
  EXPECT_EQ(Lex("if a:\n  b\n  if c:\n      d\ne\n"),
            "if NAME(a) : NEWLINE INDENT NAME(b) NEWLINE if NAME(c) : NEWLINE INDENT NAME(d) NEWLINE "
            "DEDENT DEDENT NAME(e) NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, BlankAndCommentLinesProduceNothing) {
  EXPECT_EQ(Lex("a  # trailing\n\n      # indented comment\n\t\n   \nb\n# last"),
            "NAME(a) NEWLINE NAME(b) NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, NewlinesInsideBracketsAreJoined) {
  EXPECT_EQ(Lex("f(a,\n        b,\n  [c,\n{d: e}])\n"),
            "NAME(f) ( NAME(a) , NAME(b) , [ NAME(c) , { NAME(d) : NAME(e) } ] ) NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, BackslashContinuation) {
  EXPECT_EQ(Lex("x = 1 + \\\n        2\n"), "NAME(x) = INT(1) + INT(2) NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, MissingFinalNewlineAndDedentsAreAdded) {
  EXPECT_EQ(Lex("if a:\n    if b:\n        c"),
            "if NAME(a) : NEWLINE INDENT if NAME(b) : NEWLINE INDENT NAME(c) NEWLINE DEDENT DEDENT END_OF_FILE");
}

TEST(PyLexerTest, EmptyInputs) {
  EXPECT_EQ(Lex(""), "END_OF_FILE");
  EXPECT_EQ(Lex("\n\n   \n"), "END_OF_FILE");
  EXPECT_EQ(Lex("# only a comment"), "END_OF_FILE");
}

TEST(PyLexerTest, CarriageReturnLineEndings) {
  EXPECT_EQ(Lex("if a:\r\n    b\r\nc\r\n"),
            "if NAME(a) : NEWLINE INDENT NAME(b) NEWLINE DEDENT NAME(c) NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, Numbers) {
  EXPECT_EQ(Lex("0 42 1_000 0x1F 0X_ff 0o17 0b1010 1.0 1e-5 .5 1. 2E+3 1_0.5_0 inf"),
            "INT(0) INT(42) INT(1_000) INT(0x1F) INT(0X_ff) INT(0o17) INT(0b1010) FLOAT(1.0) FLOAT(1e-5) "
            "FLOAT(.5) FLOAT(1.) FLOAT(2E+3) FLOAT(1_0.5_0) NAME(inf) NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, LongestOperatorMatch) {
  EXPECT_EQ(Lex("a **= b // c -> d <<= e != f ... g >= h ** i"),
            "NAME(a) **= NAME(b) // NAME(c) -> NAME(d) <<= NAME(e) != NAME(f) ... NAME(g) >= NAME(h) ** NAME(i) "
            "NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, KeywordsAreNotNames) {
  EXPECT_EQ(Lex("def class_ None Nonex lambda"), "def NAME(class_) None NAME(Nonex) lambda NEWLINE END_OF_FILE");
}

TEST(PyLexerTest, StringValuesAreDecoded) {
  std::vector<Token> tokens = Tokenize(Source(R"(a = "x\ty\n\\\"\x41\u00e9\101" + r'\d\'' + '''l1
l2''' + "\q")"));
  ASSERT_GE(tokens.size(), 9u);
  EXPECT_EQ(tokens[2].value, "x\ty\n\\\"A\xC3\xA9" "A");
  EXPECT_EQ(tokens[4].value, "\\d\\'");
  EXPECT_EQ(tokens[6].value, "l1\nl2");
  EXPECT_EQ(Where(Span{nullptr, tokens[6].loc.line, tokens[6].loc.column, tokens[6].loc.end_line,
                       tokens[6].loc.end_column}),
            "1:44-2:6");
  EXPECT_EQ(tokens[8].value, "\\q");  // Unknown escapes keep the backslash.
}

// ---------------------------------------------------------------------------
// Expressions.

TEST(PyParserTest, Constants) {
  std::unique_ptr<Module> module = Parse("(1_000, 0x1F, 9223372036854775808, 1.5e-3, 'a' \"b\", True, None, ...)\n");
  const auto& tuple = module->body[0]->Cast<ExprStmt>().value->Cast<Tuple>();
  ASSERT_EQ(tuple.elts.size(), 8u);
  const auto& thousand = tuple.elts[0]->Cast<Constant>();
  EXPECT_EQ(thousand.value_kind, ConstantKind::kInt);
  EXPECT_EQ(thousand.int_value, 1000);
  EXPECT_EQ(thousand.text, "1_000");
  EXPECT_EQ(tuple.elts[1]->Cast<Constant>().int_value, 31);
  const auto& big = tuple.elts[2]->Cast<Constant>();
  EXPECT_TRUE(big.int_overflow);
  EXPECT_EQ(static_cast<uint64_t>(big.int_value), 9223372036854775808ull);
  const auto& flt = tuple.elts[3]->Cast<Constant>();
  EXPECT_EQ(flt.value_kind, ConstantKind::kFloat);
  EXPECT_DOUBLE_EQ(flt.float_value, 1.5e-3);
  EXPECT_EQ(flt.text, "1.5e-3");
  const auto& str = tuple.elts[4]->Cast<Constant>();
  EXPECT_EQ(str.string_value, "ab");
  EXPECT_EQ(str.text, "'a' \"b\"");
  EXPECT_TRUE(tuple.elts[5]->Cast<Constant>().bool_value);
  EXPECT_EQ(tuple.elts[6]->Cast<Constant>().value_kind, ConstantKind::kNone);
  EXPECT_EQ(tuple.elts[7]->Cast<Constant>().value_kind, ConstantKind::kEllipsis);
  EXPECT_EQ(Dump(tuple), "(tuple 1_000 0x1F 9223372036854775808 1.5e-3 \"ab\" True None ...)");
}

TEST(PyParserTest, AttributeChain) {
  EXPECT_EQ(E("T.axis.remap"), "(. (. T axis) remap)");
}

TEST(PyParserTest, CallArguments) {
  EXPECT_EQ(E("f(a, *rest, k=1, **extra)"), "(call f a (* rest) k=1 **extra)");
  EXPECT_EQ(E("f()"), "(call f)");
  EXPECT_EQ(E("f(a,)"), "(call f a)");
  EXPECT_EQ(E("R.Tensor((n, 4), dtype='float32')"), "(call (. R Tensor) (tuple n 4) dtype=\"float32\")");
  EXPECT_EQ(E("f(x)(y)"), "(call (call f x) y)");
}

TEST(PyParserTest, KeywordArgumentKeepsNameSpan) {
  std::unique_ptr<Module> module = Parse("T.prim_func(private=True)\n");
  const auto& call = module->body[0]->Cast<ExprStmt>().value->Cast<Call>();
  ASSERT_EQ(call.keywords.size(), 1u);
  EXPECT_EQ(call.keywords[0].name, "private");
  EXPECT_EQ(Where(call.keywords[0].name_span), "1:13-1:20");
  EXPECT_EQ(Where(call.keywords[0].span), "1:13-1:25");
}

TEST(PyParserTest, SubscriptsAndSlices) {
  EXPECT_EQ(E("X[vi, vj]"), "(sub X (tuple vi vj))");
  EXPECT_EQ(E("a[i]"), "(sub a i)");
  EXPECT_EQ(E("a[i,]"), "(sub a (tuple i))");
  EXPECT_EQ(E("a[1:2]"), "(sub a (slice 1 2 _))");
  EXPECT_EQ(E("a[::2, :, i:]"), "(sub a (tuple (slice _ _ 2) (slice _ _ _) (slice i _ _)))");
  EXPECT_EQ(E("a[:n - 1:-1]"), "(sub a (slice _ (- n 1) (neg 1)))");
  EXPECT_EQ(E("a[b][c]"), "(sub (sub a b) c)");
}

TEST(PyParserTest, TuplesListsDicts) {
  EXPECT_EQ(E("()"), "(tuple)");
  EXPECT_EQ(E("(a,)"), "(tuple a)");
  EXPECT_EQ(E("(a)"), "a");
  EXPECT_EQ(E("a, b,"), "(tuple a b)");
  EXPECT_EQ(E("(a, *b)"), "(tuple a (* b))");
  EXPECT_EQ(E("[]"), "(list)");
  EXPECT_EQ(E("[1, [2, 3],]"), "(list 1 (list 2 3))");
  EXPECT_EQ(E("{}"), "(dict)");
  EXPECT_EQ(E("{'a': 1, **d, b: [c]}"), "(dict (\"a\" 1) (**d) (b (list c)))");
}

TEST(PyParserTest, TupleParenthesizedFlag) {
  std::unique_ptr<Module> module = Parse("(a, b)\na, b\n");
  EXPECT_TRUE(module->body[0]->Cast<ExprStmt>().value->Cast<Tuple>().parenthesized);
  EXPECT_FALSE(module->body[1]->Cast<ExprStmt>().value->Cast<Tuple>().parenthesized);
}

TEST(PyParserTest, ArithmeticPrecedence) {
  EXPECT_EQ(E("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(E("a * b + c"), "(+ (* a b) c)");
  EXPECT_EQ(E("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(E("a @ b / c // d % e"), "(% (// (/ (@ a b) c) d) e)");
  EXPECT_EQ(E("(a + b) * c"), "(* (+ a b) c)");
}

TEST(PyParserTest, PowerAndUnary) {
  EXPECT_EQ(E("-x ** 2"), "(neg (** x 2))");
  EXPECT_EQ(E("a ** b ** c"), "(** a (** b c))");
  EXPECT_EQ(E("2 ** -1"), "(** 2 (neg 1))");
  EXPECT_EQ(E("-a.b(c)[d]"), "(neg (sub (call (. a b) c) d))");
  EXPECT_EQ(E("~a + +b"), "(+ (~ a) (pos b))");
  EXPECT_EQ(E("- - a"), "(neg (neg a))");
}

TEST(PyParserTest, BitwiseAndShiftPrecedence) {
  EXPECT_EQ(E("a | b ^ c & d << e + f * g"), "(| a (^ b (& c (<< d (+ e (* f g))))))");
  EXPECT_EQ(E("a << b >> c"), "(>> (<< a b) c)");
  EXPECT_EQ(E("a & b | c"), "(| (& a b) c)");
}

TEST(PyParserTest, ComparisonsAndBooleans) {
  EXPECT_EQ(E("a < b <= c"), "(cmp a < b <= c)");
  EXPECT_EQ(E("a not in b is not c in d"), "(cmp a not-in b is-not c in d)");
  EXPECT_EQ(E("a == b != c > d >= e is f"), "(cmp a == b != c > d >= e is f)");
  EXPECT_EQ(E("a < b | c"), "(cmp a < (| b c))");
  EXPECT_EQ(E("not a == b"), "(not (cmp a == b))");
  EXPECT_EQ(E("a or b and c"), "(or a (and b c))");
  EXPECT_EQ(E("a and b and not c"), "(and a b (not c))");
  EXPECT_EQ(E("a or b or c"), "(or a b c)");
  EXPECT_EQ(E("not not a"), "(not (not a))");
}

TEST(PyParserTest, ConditionalExpressionAndLambda) {
  EXPECT_EQ(E("a if b else c or d"), "(ifexp b a (or c d))");
  EXPECT_EQ(E("a if b else c if d else e"), "(ifexp b a (ifexp d c e))");
  EXPECT_EQ(E("lambda x, y=1: x if y else -x"), "(lambda (x y=1) (ifexp y x (neg x)))");
  EXPECT_EQ(E("lambda: 0"), "(lambda () 0)");
  EXPECT_EQ(E("f(lambda a, *b, **c: a)"), "(call f (lambda (a *b **c) a))");
}

// ---------------------------------------------------------------------------
// Statements.

TEST(PyParserTest, Assignments) {
  EXPECT_EQ(S("a = 1\n"), "(= a 1)");
  EXPECT_EQ(S("a, b = c\n"), "(= (tuple a b) c)");
  EXPECT_EQ(S("(a, b), [c, *d] = e, f\n"), "(= (tuple (tuple a b) (list c (* d))) (tuple e f))");
  EXPECT_EQ(S("x.y[i] = 1\n"), "(= (sub (. x y) i) 1)");
  EXPECT_EQ(S("vi, vj = T.axis.remap('SS', [i, j])\n"),
            "(= (tuple vi vj) (call (. (. T axis) remap) \"SS\" (list i j)))");
}

TEST(PyParserTest, AnnotatedAssignments) {
  EXPECT_EQ(S("lv0: R.Tensor((n, 4), 'float32') = R.matmul(x, w)\n"),
            "(ann lv0 (call (. R Tensor) (tuple n 4) \"float32\") (call (. R matmul) x w))");
  EXPECT_EQ(S("x: int\n"), "(ann x int)");
  EXPECT_EQ(S("self.x: int = 1\n"), "(ann (. self x) int 1)");
}

TEST(PyParserTest, AugmentedAssignments) {
  EXPECT_EQ(S("a += 1\nb -= 2\nc *= 3\nd /= 4\ne //= 5\nf **= 6\ng[i] <<= 7\n"),
            "(+= a 1) (-= b 2) (*= c 3) (/= d 4) (//= e 5) (**= f 6) (<<= (sub g i) 7)");
}

TEST(PyParserTest, ReturnPassAssert) {
  EXPECT_EQ(S("return\nreturn x\nreturn a, b\npass\nassert x\nassert x > 0, 'msg'\n"),
            "(return) (return x) (return (tuple a b)) (pass) (assert x) (assert (cmp x > 0) \"msg\")");
}

TEST(PyParserTest, IfElifElse) {
  EXPECT_EQ(S("if a:\n    x = 1\nelif b:\n    pass\nelif c:\n    pass\nelse:\n    y = 2\n"),
            "(if a ((= x 1)) ((if b ((pass)) ((if c ((pass)) ((= y 2)))))))");
  EXPECT_EQ(S("if a:\n    pass\n"), "(if a ((pass)))");
}

TEST(PyParserTest, ElifSpansStartAtTheirKeyword) {
  std::unique_ptr<Module> module = Parse("if a:\n    pass\nelif b:\n    pass\nelse:\n    x = 1\n");
  const auto& outer = module->body[0]->Cast<If>();
  EXPECT_EQ(Where(outer.span), "1:1-6:10");
  ASSERT_EQ(outer.orelse.size(), 1u);
  EXPECT_EQ(Where(outer.orelse[0]->span), "3:1-6:10");
}

TEST(PyParserTest, ForLoops) {
  EXPECT_EQ(S("for i, j in T.grid(n, 4):\n    pass\n"), "(for (tuple i j) (call (. T grid) n 4) ((pass)))");
  EXPECT_EQ(S("for x in a, b:\n    break\nelse:\n    continue\n"), "(for x (tuple a b) ((break)) ((continue)))");
  EXPECT_EQ(S("for (a, b), c in d:\n    pass\n"), "(for (tuple (tuple a b) c) d ((pass)))");
}

TEST(PyParserTest, WhileLoop) {
  EXPECT_EQ(S("while i < n:\n    i += 1\n"), "(while (cmp i < n) ((+= i 1)))");
}

TEST(PyParserTest, WithStatements) {
  EXPECT_EQ(S("with R.dataflow():\n    pass\n"), "(with (call (. R dataflow)) ((pass)))");
  EXPECT_EQ(S("with a as x, b, c as (d, e):\n    pass\n"), "(with (as a x) b (as c (tuple d e)) ((pass)))");
}

TEST(PyParserTest, FunctionDefinitions) {
  EXPECT_EQ(S("@R.function\n@other(1)\ndef main(x: R.Tensor, y=2, *args, k: int = 3, **kw) -> R.Tensor:\n"
              "    return x\n"),
            "(def main @(. R function) @(call other 1) (x:(. R Tensor) y=2 *args k:int=3 **kw) -> (. R Tensor) "
            "((return x)))");
  EXPECT_EQ(S("def f(a, /, b, *, c):\n    pass\n"), "(def f (a / b * c) ((pass)))");
  EXPECT_EQ(S("def f(): return 1\n"), "(def f () ((return 1)))");
}

TEST(PyParserTest, FunctionDefSpans) {
  std::unique_ptr<Module> module = Parse("@R.function\ndef main(x: T.handle):\n    return x\n");
  const auto& def = module->body[0]->Cast<FunctionDef>();
  EXPECT_EQ(Where(def.span), "2:1-3:13");  // From `def`, not the decorator.
  EXPECT_EQ(Where(def.name_span), "2:5-2:9");
  EXPECT_EQ(Where(def.decorators[0]->span), "1:2-1:12");
  ASSERT_EQ(def.params.size(), 1u);
  EXPECT_EQ(Where(def.params[0].span), "2:10-2:21");
  EXPECT_EQ(Where(def.params[0].name_span), "2:10-2:11");
  EXPECT_EQ(Where(def.params[0].annotation->span), "2:13-2:21");
}

TEST(PyParserTest, ClassDefinitions) {
  EXPECT_EQ(S("@I.ir_module\nclass Module:\n    pass\n"), "(class Module @(. I ir_module) () ((pass)))");
  EXPECT_EQ(S("class A(B, C, metaclass=M):\n    x: int\n"), "(class A (B C) metaclass=M ((ann x int)))");
}

TEST(PyParserTest, Imports) {
  EXPECT_EQ(S("import tvm\nimport a.b as c, d\nfrom tvm.script import tir as T, relax as R\n"
              "from . import x\nfrom ..m import (y, z,)\nfrom m import *\n"),
            "(import tvm) (import (as a.b c) d) (from tvm.script (as tir T) (as relax R)) (from . x) "
            "(from ..m y z) (from m *)");
}

TEST(PyParserTest, SimpleStatementsOnOneLine) {
  EXPECT_EQ(S("a = 1; b = 2;\nif x: y = 1; z = 2\n"), "(= a 1) (= b 2) (if x ((= y 1) (= z 2)))");
}

TEST(PyParserTest, ExpressionStatements) {
  EXPECT_EQ(S("R.output(lv0)\nT.evaluate(0)\n"), "(expr (call (. R output) lv0)) (expr (call (. T evaluate) 0))");
}

TEST(PyParserTest, DocstringsAndComments) {
  EXPECT_EQ(S("def f():\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    # comment\n    return 1  # trailing\n"),
            "(def f () ((expr \"Doc.\\n\\n    More.\\n    \") (return 1)))");
}

TEST(PyParserTest, EmptyAndWhitespaceOnlyInput) {
  EXPECT_TRUE(Parse("")->body.empty());
  EXPECT_TRUE(Parse("\n\n  \n# c\n")->body.empty());
  EXPECT_EQ(S("x = 1"), "(= x 1)");  // No trailing newline.
}

TEST(PyAstTest, KindsCastsAndChildren) {
  std::unique_ptr<Module> module = Parse("x = f(a, *b, k=c)\n");
  const Node& stmt = *module->body[0];
  EXPECT_TRUE(stmt.Is<Stmt>());
  EXPECT_FALSE(stmt.Is<Expr>());
  EXPECT_NE(stmt.As<Assign>(), nullptr);
  EXPECT_EQ(stmt.As<Return>(), nullptr);
  EXPECT_STREQ(NodeKindName(stmt.kind), "Assign");
  const Expr& call = *stmt.Cast<Assign>().value;
  std::vector<std::string> children;
  ForEachChild(call, [&](const Node& child) { children.push_back(Dump(child)); });
  EXPECT_EQ(children, (std::vector<std::string>{"f", "a", "(* b)", "c"}));
  EXPECT_STREQ(Spelling(BinOpKind::kFloorDiv), "//");
  EXPECT_STREQ(Spelling(CmpOpKind::kNotIn), "not in");
}

// ---------------------------------------------------------------------------
// Spans.

TEST(PyParserTest, ExpressionSpans) {
  std::unique_ptr<Module> module = Parse("y = (a + b) * c\n");
  const auto& assign = module->body[0]->Cast<Assign>();
  EXPECT_EQ(Where(assign.span), "1:1-1:16");
  EXPECT_EQ(Where(assign.target->span), "1:1-1:2");
  const auto& mul = assign.value->Cast<BinOp>();
  EXPECT_EQ(Where(mul.span), "1:5-1:16");   // Includes the parentheses.
  EXPECT_EQ(Where(mul.left->span), "1:6-1:11");  // a + b, without them.
}

TEST(PyParserTest, AttributeAndCallSpans) {
  std::unique_ptr<Module> module = Parse("x = T.match_buffer(a,\n                   (n, 4))\n");
  const auto& call = module->body[0]->Cast<Assign>().value->Cast<Call>();
  EXPECT_EQ(Where(call.span), "1:5-2:27");
  const auto& attr = call.func->Cast<Attribute>();
  EXPECT_EQ(Where(attr.span), "1:5-1:19");
  EXPECT_EQ(Where(attr.attr_span), "1:7-1:19");
  EXPECT_EQ(Where(call.args[1]->span), "2:20-2:26");
}

TEST(PyParserTest, TupleTargetAndSubscriptSpans) {
  std::unique_ptr<Module> module = Parse("vi, vj = f()\nY[vi, vj] = 0\n");
  EXPECT_EQ(Where(module->body[0]->Cast<Assign>().target->span), "1:1-1:7");
  const auto& sub = module->body[1]->Cast<Assign>().target->Cast<Subscript>();
  EXPECT_EQ(Where(sub.span), "2:1-2:10");
  EXPECT_EQ(Where(sub.index->span), "2:3-2:9");
}

TEST(PyParserTest, ModuleSpanAndHeights) {
  std::unique_ptr<Module> module = Parse("a = 1\nb = (c + d) * e\n");
  EXPECT_EQ(module->span.line, 1);
  EXPECT_EQ(module->span.end_line, 2);
  EXPECT_EQ(module->body[0]->height, 2);
  EXPECT_EQ(module->body[1]->height, 4);
  EXPECT_EQ(module->height, 5);
}

// ---------------------------------------------------------------------------
// A realistic TVMScript module.

constexpr const char* kTvmScript = R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def relu(x: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = T.max(X[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            lv0: R.Tensor((n, 4), "float32") = R.matmul(x, w)
            R.output(lv0)
        return lv0
)";

TEST(PyParserTest, TvmScriptModule) {
  std::unique_ptr<Module> module = Parse(kTvmScript);
  ASSERT_EQ(module->body.size(), 1u);
  const auto& cls = module->body[0]->Cast<ClassDef>();
  EXPECT_EQ(cls.name, "Module");
  ASSERT_EQ(cls.body.size(), 2u);

  const auto& relu = cls.body[0]->Cast<FunctionDef>();
  EXPECT_EQ(Dump(*relu.decorators[0]), "(call (. T prim_func) private=True)");
  EXPECT_EQ(Dump(relu),
            "(def relu @(call (. T prim_func) private=True) (x:(. T handle) y:(. T handle)) ("
            "(= n (call (. T int64))) "
            "(= X (call (. T match_buffer) x (tuple n (call (. T int64) 4)) \"float32\")) "
            "(for (tuple i j) (call (. T grid) n (call (. T int64) 4)) ("
            "(with (call (. T block) \"relu\") ("
            "(= (tuple vi vj) (call (. (. T axis) remap) \"SS\" (list i j))) "
            "(= (sub Y (tuple vi vj)) (call (. T max) (sub X (tuple vi vj)) (call (. T float32) 0)))))))))");
  EXPECT_EQ(Where(relu.span), "4:5-10:59");

  const auto& main = cls.body[1]->Cast<FunctionDef>();
  EXPECT_EQ(Dump(main),
            "(def main @(. R function) (x:(call (. R Tensor) (tuple \"n\" 4) dtype=\"float32\")) -> "
            "(call (. R Tensor) (tuple \"n\" 4) dtype=\"float32\") ("
            "(with (call (. R dataflow)) ("
            "(ann lv0 (call (. R Tensor) (tuple n 4) \"float32\") (call (. R matmul) x w)) "
            "(expr (call (. R output) lv0)))) "
            "(return lv0)))");
  const auto& with = main.body[0]->Cast<With>();
  const auto& ann = with.body[0]->Cast<AnnAssign>();
  EXPECT_EQ(Where(ann.span), "15:13-15:62");
  EXPECT_EQ(Where(ann.value->span), "15:48-15:62");
  EXPECT_EQ(Where(main.returns->span), "13:57-13:92");
  EXPECT_EQ(Where(cls.span), "2:1-17:19");
}

// ---------------------------------------------------------------------------
// Errors.

TEST(PyParserErrorTest, UnclosedParenAtEndOfFile) {
  Error error = ParseError("x = f(a, b\n");
  EXPECT_EQ(error.message, "expected ')' to close '(' at 1:6, found end of file");
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, 11);
  ASSERT_EQ(error.notes.size(), 1u);
  EXPECT_EQ(error.notes[0].message, "'(' opened here");
  EXPECT_EQ(error.notes[0].span.line, 1);
  EXPECT_EQ(error.notes[0].span.column, 6);
}

TEST(PyParserErrorTest, UnclosedBracketBeforeNextStatement) {
  Error error = ParseError("def f():\n    x = [a, b\n    y = 2\n");
  EXPECT_EQ(error.message, "expected ']' to close '[' at 2:9, found name 'y' (missing ','?)");
  EXPECT_EQ(error.line, 3);
  EXPECT_EQ(error.column, 5);
  ASSERT_EQ(error.notes.size(), 1u);
  EXPECT_EQ(error.notes[0].span.line, 2);
}

TEST(PyParserErrorTest, MissingCommaInCall) {
  Error error = ParseError("f(a b)\n");
  EXPECT_EQ(error.message, "expected ')' to close '(' at 1:2, found name 'b' (missing ','?)");
  EXPECT_EQ(error.column, 5);
}

TEST(PyParserErrorTest, UnexpectedIndent) {
  Error error = ParseError("x = 1\n    y = 2\n");
  EXPECT_EQ(error.message, "unexpected indent");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 5);
}

TEST(PyParserErrorTest, UnindentMismatch) {
  Error error = ParseError("if a:\n    b = 1\n  c = 2\n");
  EXPECT_EQ(error.message, "unindent does not match any outer indentation level");
  EXPECT_EQ(error.line, 3);
  EXPECT_EQ(error.column, 3);
}

TEST(PyParserErrorTest, TabsInIndentation) {
  Error error = ParseError("if a:\n\tb = 1\n");
  EXPECT_EQ(error.message, "tab character in indentation; indent with spaces only");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 1);
}

TEST(PyParserErrorTest, UnterminatedStrings) {
  Error single = ParseError("x = 'abc\ny = 1\n");
  EXPECT_EQ(single.message, "unterminated string literal");
  EXPECT_EQ(single.line, 1);
  EXPECT_EQ(single.column, 5);
  Error triple = ParseError("x = 1\ny = \"\"\"abc\n\n");
  EXPECT_EQ(triple.message, "unterminated triple-quoted string literal (detected at line 4)");
  EXPECT_EQ(triple.line, 2);
  EXPECT_EQ(triple.column, 5);
}

TEST(PyParserErrorTest, InvalidCharacters) {
  Error dollar = ParseError("x = $y\n");
  EXPECT_EQ(dollar.message, "invalid character '$'");
  EXPECT_EQ(dollar.column, 5);
  EXPECT_EQ(ParseError("x = a ? b\n").message, "invalid character '?'");
  EXPECT_EQ(ParseError("x = \x01\n").message, "invalid character '\\x01'");
  EXPECT_EQ(ParseError("x = \xE2\x86\x92\n").message, "invalid character '\xE2\x86\x92' (U+2192)");
  EXPECT_EQ(ParseError("x = 1 ! 2\n").message, "invalid character '!'");
}

TEST(PyParserErrorTest, MissingIndentedBlock) {
  Error error = ParseError("@R.function\ndef main():\nreturn 1\n");
  EXPECT_EQ(error.message, "expected an indented block after 'def' on line 2, found keyword 'return'");
  EXPECT_EQ(error.line, 3);
  EXPECT_EQ(error.column, 1);
  EXPECT_EQ(ParseError("for i in x:\n").message,
            "expected an indented block after 'for' on line 1, found end of file");
}

TEST(PyParserErrorTest, MissingColon) {
  Error error = ParseError("if x\n    pass\n");
  EXPECT_EQ(error.message, "expected ':' after the 'if' condition, found end of line");
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, 5);
  EXPECT_EQ(ParseError("def f()\n    pass\n").message, "expected ':' after the function signature, found end of line");
}

TEST(PyParserErrorTest, MismatchedAndUnmatchedBrackets) {
  Error mismatch = ParseError("x = (a,\n     b]\n");
  EXPECT_EQ(mismatch.message, "closing ']' does not match opening '(' at 1:5");
  EXPECT_EQ(mismatch.line, 2);
  EXPECT_EQ(mismatch.column, 7);
  ASSERT_EQ(mismatch.notes.size(), 1u);
  EXPECT_EQ(mismatch.notes[0].span.column, 5);
  Error unmatched = ParseError("x = a)\n");
  EXPECT_EQ(unmatched.message, "unmatched ')'");
  EXPECT_EQ(unmatched.column, 6);
}

TEST(PyParserErrorTest, ExpectedExpression) {
  Error error = ParseError("x = (1 +)\n");
  EXPECT_EQ(error.message, "expected an expression, found ')'");
  EXPECT_EQ(error.column, 9);
  EXPECT_EQ(ParseError("x =\n").message, "expected an expression, found end of line");
  EXPECT_EQ(ParseError("x = 1 +").message, "expected an expression, found end of line");
}

TEST(PyParserErrorTest, TrailingTokens) {
  Error error = ParseError("x = 1 2\n");
  EXPECT_EQ(error.message, "expected end of line after the statement, found number '2'");
  EXPECT_EQ(error.column, 7);
}

TEST(PyParserErrorTest, InvalidAssignmentTargets) {
  Error call = ParseError("f() = 1\n");
  EXPECT_EQ(call.message, "cannot assign to function call");
  EXPECT_EQ(call.column, 1);
  EXPECT_EQ(ParseError("a, 1 = x\n").message, "cannot assign to literal");
  EXPECT_EQ(ParseError("for a + b in c:\n    pass\n").message, "cannot assign to expression");
  EXPECT_EQ(ParseError("(a, b): int = 1\n").message, "only a single target (not a tuple) can be annotated");
  EXPECT_EQ(ParseError("f() += 1\n").message, "'function call' is an illegal target for augmented assignment '+='");
  Error chained = ParseError("a = b = c\n");
  EXPECT_EQ(chained.message, "chained assignment (a = b = c) is not supported; use separate assignments");
  EXPECT_EQ(chained.column, 7);
}

TEST(PyParserErrorTest, BadNumbers) {
  EXPECT_EQ(ParseError("x = 1abc\n").message, "invalid decimal literal");
  EXPECT_EQ(ParseError("x = 012\n").message,
            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal");
  EXPECT_EQ(ParseError("x = 0x\n").message, "invalid hexadecimal literal");
  EXPECT_EQ(ParseError("x = 1__0\n").message, "invalid decimal literal");
  EXPECT_EQ(ParseError("x = 2j\n").message, "imaginary literals are not supported");
  Error error = ParseError("y = 1\nx = 0b102\n");
  EXPECT_EQ(error.message, "invalid binary literal");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 5);
}

TEST(PyParserErrorTest, UnsupportedSyntax) {
  EXPECT_EQ(ParseError("try:\n    pass\n").message, "'try' statements are not supported");
  EXPECT_EQ(ParseError("x = yield 1\n").message, "'yield' expressions are not supported");
  EXPECT_EQ(ParseError("x = [i for i in y]\n").message, "comprehensions are not supported");
  EXPECT_EQ(ParseError("x = f'{a}'\n").message, "f-strings are not supported");
  EXPECT_EQ(ParseError("x = b'a'\n").message, "bytes literals are not supported");
  EXPECT_EQ(ParseError("x = {a, b}\n").message,
            "expected ':' after the dict key (set displays are not supported), found ','");
  EXPECT_EQ(ParseError("if x: for y in z: pass\n").message, "'for' must start on its own line");
}

TEST(PyParserErrorTest, StrayElseAndDecorator) {
  Error error = ParseError("x = 1\nelse:\n    pass\n");
  EXPECT_EQ(error.message, "'else' does not follow an 'if', 'for' or 'while' block at the same indentation");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(ParseError("@dec\nx = 1\n").message, "expected 'def' or 'class' after the decorator, found name 'x'");
}

TEST(PyParserErrorTest, ArgumentAndParameterOrder) {
  Error error = ParseError("f(a=1, b)\n");
  EXPECT_EQ(error.message, "positional argument follows keyword argument");
  EXPECT_EQ(error.column, 8);
  EXPECT_EQ(ParseError("f(a=1, a=2)\n").message, "keyword argument repeated: 'a'");
  EXPECT_EQ(ParseError("def f(a=1, b):\n    pass\n").message,
            "parameter without a default follows parameter with a default");
  EXPECT_EQ(ParseError("def f(a, a):\n    pass\n").message, "duplicate parameter 'a'");
  EXPECT_EQ(ParseError("def f(*a, *b):\n    pass\n").message, "'*' may appear only once in a parameter list");
  EXPECT_EQ(ParseError("def f(a, *, **k):\n    pass\n").message, "named parameters must follow a bare '*'");
  EXPECT_EQ(ParseError("def f(*, a, /):\n    pass\n").message, "'/' must come before '*'");
  Error kwargs = ParseError("lambda **k, b: 0\n");
  EXPECT_EQ(kwargs.message, "no parameter may follow '**k'");
  EXPECT_EQ(kwargs.column, 13);
  EXPECT_EQ(ParseError("f(a.b=1)\n").message,
            "expected a name before '=' in a keyword argument, found expression (did you mean '=='?)");
}

TEST(PyParserErrorTest, LineContinuationErrors) {
  Error error = ParseError("x = 1 + \\ 2\n");
  EXPECT_EQ(error.message, "unexpected character after line continuation character '\\'");
  EXPECT_EQ(error.column, 9);
  EXPECT_EQ(ParseError("x = 1 + \\").message, "unexpected end of file after line continuation character '\\'");
}

TEST(PyParserErrorTest, ErrorsRenderWithSourceLine) {
  Error error = ParseError("def f(x):\n    return T.max(x, $)\n");
  EXPECT_EQ(error.rendered,
            "test.py:2:21: error: invalid character '$'\n"
            "        return T.max(x, $)\n"
            "                        ^\n");
}

// ---------------------------------------------------------------------------
// Limits and robustness.

TEST(PyParserLimitTest, DeeplyNestedBrackets) {
  Error error = ParseError("x = " + std::string(1000, '(') + "1" + std::string(1000, ')') + "\n");
  EXPECT_EQ(error.message, "too many nested brackets (the limit is 200)");
  EXPECT_EQ(error.column, 5 + 200);
  // Just under the limit parses.
  std::unique_ptr<Module> module = Parse("x = " + std::string(150, '[') + "1" + std::string(150, ']') + "\n");
  EXPECT_EQ(module->body.size(), 1u);
}

TEST(PyParserLimitTest, DeepRecursionWithoutBrackets) {
  std::string minus;
  for (int i = 0; i < 5000; ++i) minus += "-";
  EXPECT_EQ(ParseError("x = " + minus + "1\n").message, "expression is nested too deeply (the limit is 200 levels)");
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  EXPECT_EQ(ParseError("x = " + nots + "a\n").message, "expression is nested too deeply (the limit is 200 levels)");
  std::string lambdas;
  for (int i = 0; i < 5000; ++i) lambdas += "lambda: ";
  EXPECT_EQ(ParseError("x = " + lambdas + "a\n").message, "expression is nested too deeply (the limit is 200 levels)");
}

TEST(PyParserLimitTest, LongChainsAreBoundedByTreeHeight) {
  std::string sum = "x = a";
  for (int i = 0; i < 500; ++i) sum += " + a";
  EXPECT_EQ(Parse(sum + "\n")->body.size(), 1u);
  std::string attrs = "x = a";
  for (int i = 0; i < 100000; ++i) attrs += ".b";
  Error error = ParseError(attrs + "\n");
  EXPECT_EQ(error.message, "expression or statement is nested too deeply (more than 1000 levels)");
  std::string elifs = "if a:\n    pass\n";
  for (int i = 0; i < 20000; ++i) elifs += "elif a:\n    pass\n";
  EXPECT_EQ(ParseError(elifs).message, "expression or statement is nested too deeply (more than 1000 levels)");
}

TEST(PyParserLimitTest, DeepIndentation) {
  std::string text;
  for (int i = 0; i < 150; ++i) text += std::string(static_cast<size_t>(i), ' ') + "if a:\n";
  text += std::string(150, ' ') + "pass\n";
  EXPECT_EQ(ParseError(text).message, "too many levels of indentation (the limit is 100)");
}

// Whatever the input, parsing ends in a tree or a CompileError.
void ExpectNoCrash(const std::string& text) {
  try {
    std::unique_ptr<Module> module = Parse(text);
    Dump(*module);
  } catch (const CompileError& error) {
    EXPECT_TRUE(error.diagnostic().span.defined()) << text;
    EXPECT_FALSE(error.diagnostic().message.empty());
  }
}

TEST(PyParserRobustnessTest, RandomBytes) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 2000; ++i) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng() % 256);
    ExpectNoCrash(text);
  }
}

TEST(PyParserRobustnessTest, RandomTokenSoup) {
  static const char* const kPieces[] = {
      "a", "T", ".", "(", ")", "[", "]", "{", "}", ",", ":", "=", "+", "-", "*", "**", "/", "//", "@", "<", "==",
      "not", "in", "is", "and", "or", "if", "else", "elif", "for", "while", "with", "as", "def", "class", "return",
      "lambda", "pass", "1", "2.5", "'s'", "\"\"\"", "\n", "\n    ", "\n  ", " ", "\\\n", "#c", ";", "->", "*", "...",
  };
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    size_t n = rng() % 40;
    for (size_t k = 0; k < n; ++k) text += kPieces[rng() % std::size(kPieces)];
    ExpectNoCrash(text);
  }
}

TEST(PyParserRobustnessTest, MutatedTvmScript) {
  const std::string base = kTvmScript;
  std::mt19937 rng(7);
  static const char kChars[] = "()[]{}:,.=\n \t\"'#\\x1_";
  for (int i = 0; i < 2000; ++i) {
    std::string text = base;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text.erase(at, 1 + rng() % 4); break;
        case 1: text.insert(at, 1, kChars[rng() % (sizeof(kChars) - 1)]); break;
        default: text = text.substr(0, at); break;
      }
      if (text.empty()) break;
    }
    ExpectNoCrash(text);
  }
}

TEST(PyParserPerformanceTest, TenThousandLines) {
  std::string text = "@I.ir_module\nclass Module:\n";
  int lines = 2;
  for (int f = 0; lines < 10000; ++f) {
    text += "    @T.prim_func(private=True)\n";
    text += "    def f" + std::to_string(f) + "(x: T.handle, y: T.handle):\n";
    text += "        X = T.match_buffer(x, (T.int64(128), T.int64(4)), \"float32\")\n";
    text += "        for i, j in T.grid(T.int64(128), T.int64(4)):\n";
    text += "            with T.block(\"relu\"):\n";
    text += "                vi, vj = T.axis.remap(\"SS\", [i, j])\n";
    text += "                Y[vi, vj] = T.max(X[vi, vj] * 2 + 1, T.float32(0))  # relu\n";
    text += "\n";
    lines += 8;
  }
  SourceFilePtr source = Source(text);
  // CPU time, not wall time: the machine running the tests may be busy.
  double best_ms = 1e9;
  for (int run = 0; run < 5; ++run) {
    std::clock_t start = std::clock();
    std::unique_ptr<Module> module = ParsePython(source);
    std::clock_t stop = std::clock();
    best_ms = std::min(best_ms, 1000.0 * static_cast<double>(stop - start) / CLOCKS_PER_SEC);
    ASSERT_EQ(module->body.size(), 1u);
  }
  std::printf("[ perf     ] parsed %d lines (%zu bytes) in %.2f ms of CPU time\n", lines, text.size(), best_ms);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  EXPECT_LT(best_ms, 100.0);
#else
  EXPECT_LT(best_ms, 2000.0);
#endif
}

}  // namespace
}  // namespace rlx::py
