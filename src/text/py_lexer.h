// Tokenizer for the Python subset that TVMScript uses (private to rlx_text).
//
// Design:
//  * The Lexer is pulled one token at a time (Next()), so errors surface in
//    source order: a parser error on line 3 is reported before a bad
//    character on line 90.
//  * Layout follows Python's tokenizer: NEWLINE ends a logical line; INDENT
//    and DEDENT come from a stack of indentation widths; blank and
//    comment-only lines produce nothing; newlines inside (), [] and {} and
//    after a backslash join lines. Tabs in indentation are rejected. At the
//    end of input the lexer adds the missing NEWLINE and the DEDENTs, then
//    repeats END_OF_FILE forever. If brackets are still open at the end, it
//    returns END_OF_FILE at once and leaves the error (which names the
//    opening bracket) to the parser.
//  * Brackets are matched here: a wrong or unmatched closer is an error, and
//    nesting deeper than kMaxBracketDepth is refused.
//  * Tokens keep a view of their exact source text and a Loc (line and column,
//    1-based, end exclusive); strings also carry their decoded value. Numbers
//    are converted by the parser from the text.
//  * Every error is a CompileError with a span; no input makes the lexer
//    crash, loop or read out of bounds (it reads through Char(), which
//    returns -1 past the end).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rlx/support/source.h"

namespace rlx::py {

inline constexpr int kMaxBracketDepth = 200;
inline constexpr int kMaxIndentDepth = 100;

// X(enumerator, spelling). Keywords are all of Python's, so that the parser
// can reject unsupported ones (try, yield, ...) by name.
#define RLX_PY_KEYWORDS(X)                                                    \
  X(kFalse, "False") X(kNone, "None") X(kTrue, "True") X(kAnd, "and")         \
  X(kAs, "as") X(kAssert, "assert") X(kAsync, "async") X(kAwait, "await")     \
  X(kBreak, "break") X(kClass, "class") X(kContinue, "continue")              \
  X(kDef, "def") X(kDel, "del") X(kElif, "elif") X(kElse, "else")             \
  X(kExcept, "except") X(kFinally, "finally") X(kFor, "for")                  \
  X(kFrom, "from") X(kGlobal, "global") X(kIf, "if") X(kImport, "import")     \
  X(kIn, "in") X(kIs, "is") X(kLambda, "lambda") X(kNonlocal, "nonlocal")     \
  X(kNot, "not") X(kOr, "or") X(kPass, "pass") X(kRaise, "raise")             \
  X(kReturn, "return") X(kTry, "try") X(kWhile, "while") X(kWith, "with")     \
  X(kYield, "yield")

// Longest spellings first: the lexer takes the first entry that matches.
#define RLX_PY_OPERATORS(X)                                                   \
  X(kDoubleStarEqual, "**=") X(kDoubleSlashEqual, "//=")                      \
  X(kLShiftEqual, "<<=") X(kRShiftEqual, ">>=") X(kEllipsis, "...")           \
  X(kDoubleStar, "**") X(kDoubleSlash, "//") X(kLShift, "<<")                 \
  X(kRShift, ">>") X(kLessEqual, "<=") X(kGreaterEqual, ">=")                 \
  X(kEqEqual, "==") X(kNotEqual, "!=") X(kArrow, "->") X(kPlusEqual, "+=")    \
  X(kMinusEqual, "-=") X(kStarEqual, "*=") X(kSlashEqual, "/=")               \
  X(kPercentEqual, "%=") X(kAtEqual, "@=") X(kAmpEqual, "&=")                 \
  X(kPipeEqual, "|=") X(kCaretEqual, "^=")                                    \
  X(kPlus, "+") X(kMinus, "-") X(kStar, "*") X(kSlash, "/")                   \
  X(kPercent, "%") X(kAt, "@") X(kAmp, "&") X(kPipe, "|") X(kCaret, "^")      \
  X(kTilde, "~") X(kLess, "<") X(kGreater, ">") X(kAssign, "=")               \
  X(kColon, ":") X(kComma, ",") X(kDot, ".") X(kSemicolon, ";")               \
  X(kLParen, "(") X(kRParen, ")") X(kLBracket, "[") X(kRBracket, "]")         \
  X(kLBrace, "{") X(kRBrace, "}")

enum class TokenKind : unsigned char {
  kEndOfFile,
  kNewline,
  kIndent,
  kDedent,
  kName,
  kInt,
  kFloat,
  kString,
#define RLX_PY_ENUM(name, spelling) name,
  RLX_PY_KEYWORDS(RLX_PY_ENUM) RLX_PY_OPERATORS(RLX_PY_ENUM)
#undef RLX_PY_ENUM
};

// "NEWLINE", "NAME", ... for the first eight kinds; the spelling ("def",
// "(") for keywords and operators.
std::string_view TokenKindName(TokenKind kind);
bool IsKeyword(TokenKind kind);

// 1-based; end_column is one past the last character.
struct Loc {
  int line = 0;
  int column = 0;
  int end_line = 0;
  int end_column = 0;
};

struct Token {
  TokenKind kind = TokenKind::kEndOfFile;
  std::string_view text;  // Exact source text; empty for layout tokens.
  Loc loc;
  std::string value;      // kString only: the decoded contents.
};

// How an error message names a token: "name 'x'", "number '12'",
// "'('", "keyword 'def'", "end of line", "end of file", ...
std::string DescribeToken(const Token& token);

class Lexer {
 public:
  explicit Lexer(SourceFilePtr source);

  Token Next();

  const SourceFilePtr& source() const { return source_; }
  Span MakeSpan(const Loc& loc) const;

 private:
  struct OpenBracket {
    char closer;
    Loc loc;
  };

  int Char(size_t offset = 0) const {
    size_t at = pos_ + offset;
    return at < text_.size() ? static_cast<unsigned char>(text_[at]) : -1;
  }
  int Column() const { return static_cast<int>(pos_ - line_start_) + 1; }
  Loc Here(int width = 0) const;
  Loc From(const Loc& start) const;  // start .. the current position
  void ConsumeNewline();             // At '\n' or "\r\n".
  bool AtNewline() const { return Char() == '\n' || (Char() == '\r' && Char(1) == '\n'); }

  bool HandleLineStart(Token* out);
  bool ApplyIndent(int width, Token* out);
  Token AtEnd();
  void SkipSpaceAndComments();
  Token LexToken();
  Token LexNameOrString();
  Token LexNumber();
  void ScanDigits(int radix, bool leading_underscore);
  Token LexString(size_t begin, const Loc& start, bool raw);
  void LexEscape(std::string& value, bool raw);
  Token LexOperator();
  void TrackBracket(TokenKind kind, const Loc& loc);
  Token Layout(TokenKind kind, const Loc& loc) const;
  Token Make(TokenKind kind, size_t begin, const Loc& start) const;
  [[noreturn]] void Fail(const Loc& loc, const std::string& message) const;

  SourceFilePtr source_;
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  Loc last_newline_;  // Where the last consumed newline was.
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;
  std::vector<int> indents_{0};
  int pending_dedents_ = 0;
  Loc dedent_loc_;
  std::vector<OpenBracket> brackets_;
};

// All tokens up to and including the first END_OF_FILE (for tests).
std::vector<Token> Tokenize(SourceFilePtr source);

}  // namespace rlx::py
