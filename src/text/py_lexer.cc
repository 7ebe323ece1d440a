// Tokenizer for the TVMScript subset of Python; see py_lexer.h for the design.
//
// Layout handling in a nutshell: at the start of each physical line outside
// brackets, HandleLineStart skips blank/comment lines and compares the next
// real line's indentation with the stack, producing INDENT or one or more
// DEDENTs (the extra ones are queued in pending_dedents_). A newline produces
// NEWLINE only if the logical line had tokens.
#include "text/py_lexer.h"

#include <fmt/format.h>

#include <array>
#include <unordered_map>
#include <utility>

#include "rlx/support/diagnostic.h"

namespace rlx::py {
namespace {

struct Spelled {
  std::string_view spelling;
  TokenKind kind;
};

#define RLX_PY_ENTRY(name, spelling) Spelled{spelling, TokenKind::name},
constexpr Spelled kOperators[] = {RLX_PY_OPERATORS(RLX_PY_ENTRY)};
constexpr Spelled kKeywords[] = {RLX_PY_KEYWORDS(RLX_PY_ENTRY)};
#undef RLX_PY_ENTRY

const std::unordered_map<std::string_view, TokenKind>& KeywordTable() {
  static const auto* table = [] {
    auto* map = new std::unordered_map<std::string_view, TokenKind>();
    for (const Spelled& k : kKeywords) map->emplace(k.spelling, k.kind);
    return map;
  }();
  return *table;
}

// The operators that start with byte `c`, longest first.
const std::vector<Spelled>& OperatorsStartingWith(unsigned char c) {
  static const auto* table = [] {
    auto* by_char = new std::array<std::vector<Spelled>, 256>();
    for (const Spelled& op : kOperators) (*by_char)[static_cast<unsigned char>(op.spelling[0])].push_back(op);
    return by_char;
  }();
  return (*table)[c];
}

bool IsDigit(int c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(int c) { return IsIdentStart(c) || IsDigit(c); }

int HexValue(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDigitOf(int c, int radix) {
  int v = HexValue(c);
  return v >= 0 && v < radix;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Length of the well-formed UTF-8 sequence at text[pos], or 0.
size_t Utf8Length(std::string_view text, size_t pos) {
  unsigned char lead = static_cast<unsigned char>(text[pos]);
  size_t len = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0;
  if (lead >= 0xF5) len = 0;
  if (len == 0 || pos + len > text.size()) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((static_cast<unsigned char>(text[pos + i]) & 0xC0) != 0x80) return 0;
  }
  return len;
}

// "'$'", "'\x01'", "'→' (U+2192)" for an invalid-character message.
std::string DescribeChar(std::string_view text, size_t pos) {
  unsigned char c = static_cast<unsigned char>(text[pos]);
  if (c >= 0x20 && c < 0x7F) return fmt::format("'{}'", static_cast<char>(c));
  size_t len = c >= 0x80 ? Utf8Length(text, pos) : 0;
  if (len == 0) return fmt::format("'\\x{:02x}'", c);
  uint32_t cp = c & (0x7F >> len);
  for (size_t i = 1; i < len; ++i) cp = (cp << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3F);
  return fmt::format("'{}' (U+{:04X})", text.substr(pos, len), cp);
}

char CloserOf(TokenKind kind) {
  switch (kind) {
    case TokenKind::kLParen: return ')';
    case TokenKind::kLBracket: return ']';
    case TokenKind::kLBrace: return '}';
    default: return 0;
  }
}

// The literal's kind name for "invalid ... literal" messages.
const char* RadixName(int radix) {
  switch (radix) {
    case 16: return "hexadecimal";
    case 8: return "octal";
    case 2: return "binary";
    default: return "decimal";
  }
}

}  // namespace

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEndOfFile: return "END_OF_FILE";
    case TokenKind::kNewline: return "NEWLINE";
    case TokenKind::kIndent: return "INDENT";
    case TokenKind::kDedent: return "DEDENT";
    case TokenKind::kName: return "NAME";
    case TokenKind::kInt: return "INT";
    case TokenKind::kFloat: return "FLOAT";
    case TokenKind::kString: return "STRING";
#define RLX_PY_CASE(name, spelling) \
  case TokenKind::name: return spelling;
      RLX_PY_KEYWORDS(RLX_PY_CASE)
      RLX_PY_OPERATORS(RLX_PY_CASE)
#undef RLX_PY_CASE
  }
  return "?";
}

bool IsKeyword(TokenKind kind) { return kind >= TokenKind::kFalse && kind <= TokenKind::kYield; }

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEndOfFile: return "end of file";
    case TokenKind::kNewline: return "end of line";
    case TokenKind::kIndent: return "an indented line";
    case TokenKind::kDedent: return "the end of the indented block";
    case TokenKind::kName: return fmt::format("name '{}'", token.text);
    case TokenKind::kInt:
    case TokenKind::kFloat: return fmt::format("number '{}'", token.text);
    case TokenKind::kString: {
      std::string_view text = token.text.substr(0, token.text.find('\n'));
      if (text.size() > 24) return fmt::format("string {}...", text.substr(0, 20));
      return fmt::format("string {}", text);
    }
    default: break;
  }
  if (IsKeyword(token.kind)) return fmt::format("keyword '{}'", TokenKindName(token.kind));
  return fmt::format("'{}'", TokenKindName(token.kind));
}

Lexer::Lexer(SourceFilePtr source) : source_(std::move(source)), text_(source_->text()) {
  // A UTF-8 byte order mark is not part of the program.
  if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
}

Span Lexer::MakeSpan(const Loc& loc) const {
  return Span{source_, loc.line, loc.column, loc.end_line, loc.end_column};
}

Loc Lexer::Here(int width) const { return Loc{line_, Column(), line_, Column() + width}; }

Loc Lexer::From(const Loc& start) const { return Loc{start.line, start.column, line_, Column()}; }

void Lexer::ConsumeNewline() {
  last_newline_ = Here(1);
  pos_ += Char() == '\r' ? 2 : 1;
  ++line_;
  line_start_ = pos_;
}

void Lexer::Fail(const Loc& loc, const std::string& message) const { ThrowError(MakeSpan(loc), message); }

Token Lexer::Layout(TokenKind kind, const Loc& loc) const {
  Token token;
  token.kind = kind;
  token.loc = loc;
  return token;
}

Token Lexer::Make(TokenKind kind, size_t begin, const Loc& start) const {
  Token token;
  token.kind = kind;
  token.text = text_.substr(begin, pos_ - begin);
  token.loc = From(start);
  return token;
}

Token Lexer::Next() {
  for (;;) {
    if (pending_dedents_ > 0) {
      --pending_dedents_;
      return Layout(TokenKind::kDedent, dedent_loc_);
    }
    if (at_line_start_ && brackets_.empty()) {
      Token token;
      if (HandleLineStart(&token)) return token;
    }
    SkipSpaceAndComments();
    if (Char() < 0) return AtEnd();
    if (AtNewline()) {
      Loc newline = Here(1);
      ConsumeNewline();
      if (!brackets_.empty()) continue;  // Implicit line joining.
      at_line_start_ = true;
      if (!line_has_tokens_) continue;
      line_has_tokens_ = false;
      return Layout(TokenKind::kNewline, newline);
    }
    line_has_tokens_ = true;
    return LexToken();
  }
}

// Skips blank and comment-only lines, then measures the indentation of the
// next real line. Returns true with an INDENT/DEDENT token in *out if the
// indentation changed.
bool Lexer::HandleLineStart(Token* out) {
  for (;;) {
    int width = 0;
    Loc tab;
    for (;; ++pos_) {
      int c = Char();
      if (c == ' ') {
        ++width;
      } else if (c == '\t') {
        if (tab.line == 0) tab = Here(1);
        ++width;
      } else if (c == '\f') {
        width = 0;  // As in CPython: a form feed resets the count.
      } else {
        break;
      }
    }
    if (Char() == '#') {
      while (Char() >= 0 && Char() != '\n') ++pos_;
      if (Char() < 0) break;
    }
    if (AtNewline()) {
      ConsumeNewline();
      continue;
    }
    if (Char() < 0) break;
    at_line_start_ = false;
    if (tab.line != 0) {
      Fail(tab, "tab character in indentation; indent with spaces only");
    }
    return ApplyIndent(width, out);
  }
  at_line_start_ = false;
  return false;
}

bool Lexer::ApplyIndent(int width, Token* out) {
  Loc at = Here();
  if (width > indents_.back()) {
    if (static_cast<int>(indents_.size()) > kMaxIndentDepth) {
      Fail(at, fmt::format("too many levels of indentation (the limit is {})", kMaxIndentDepth));
    }
    indents_.push_back(width);
    *out = Layout(TokenKind::kIndent, at);
    return true;
  }
  if (width == indents_.back()) return false;
  int count = 0;
  while (width < indents_.back()) {
    indents_.pop_back();
    ++count;
  }
  if (width != indents_.back()) Fail(at, "unindent does not match any outer indentation level");
  pending_dedents_ = count - 1;
  dedent_loc_ = at;
  *out = Layout(TokenKind::kDedent, at);
  return true;
}

// At the end of the text: the final NEWLINE, the DEDENTs, then END_OF_FILE.
Token Lexer::AtEnd() {
  // Point at the end of the last line rather than at a line that is not there.
  Loc end = (pos_ == line_start_ && last_newline_.line > 0)
                ? Loc{last_newline_.line, last_newline_.column, last_newline_.line, last_newline_.column}
                : Here();
  if (!brackets_.empty()) return Layout(TokenKind::kEndOfFile, end);
  if (line_has_tokens_) {
    line_has_tokens_ = false;
    return Layout(TokenKind::kNewline, end);
  }
  if (indents_.size() > 1) {
    indents_.pop_back();
    return Layout(TokenKind::kDedent, end);
  }
  return Layout(TokenKind::kEndOfFile, end);
}

void Lexer::SkipSpaceAndComments() {
  for (;;) {
    int c = Char();
    if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && Char(1) != '\n')) {
      ++pos_;
    } else if (c == '#') {
      while (Char() >= 0 && Char() != '\n') ++pos_;
    } else if (c == '\\') {
      Loc at = Here(1);
      ++pos_;
      if (AtNewline()) {
        ConsumeNewline();
      } else if (Char() < 0) {
        Fail(at, "unexpected end of file after line continuation character '\\'");
      } else {
        Fail(at, "unexpected character after line continuation character '\\'");
      }
    } else {
      return;
    }
  }
}

Token Lexer::LexToken() {
  int c = Char();
  if (IsIdentStart(c)) return LexNameOrString();
  if (IsDigit(c) || (c == '.' && IsDigit(Char(1)))) return LexNumber();
  if (c == '\'' || c == '"') return LexString(pos_, Here(), /*raw=*/false);
  return LexOperator();
}

Token Lexer::LexNameOrString() {
  size_t begin = pos_;
  Loc start = Here();
  while (IsIdentChar(Char())) ++pos_;
  std::string_view word = text_.substr(begin, pos_ - begin);
  if ((Char() == '\'' || Char() == '"') && word.size() <= 2) {
    std::string lower;
    for (char ch : word) lower += static_cast<char>(ch | 0x20);
    if (lower == "r" || lower == "u") return LexString(begin, start, /*raw=*/lower == "r");
    if (lower == "b" || lower == "br" || lower == "rb") {
      Fail(From(start), "bytes literals are not supported");
    }
    if (lower == "f" || lower == "fr" || lower == "rf") Fail(From(start), "f-strings are not supported");
  }
  auto it = KeywordTable().find(word);
  return Make(it == KeywordTable().end() ? TokenKind::kName : it->second, begin, start);
}

// Consumes digits of `radix`, each `_` being followed by a digit. With
// leading_underscore, an `_` may also come first (as in 0x_ff).
void Lexer::ScanDigits(int radix, bool leading_underscore) {
  bool any = false;
  for (;;) {
    int c = Char();
    if (IsDigitOf(c, radix)) {
      any = true;
      ++pos_;
    } else if (c == '_' && (any || leading_underscore) && IsDigitOf(Char(1), radix)) {
      ++pos_;
    } else {
      return;
    }
  }
}

Token Lexer::LexNumber() {
  size_t begin = pos_;
  Loc start = Here();
  int radix = 10;
  bool is_float = false;
  int prefix = Char(1) | 0x20;
  if (Char() == '0' && (prefix == 'x' || prefix == 'o' || prefix == 'b')) {
    radix = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    pos_ += 2;
    size_t digits = pos_;
    ScanDigits(radix, /*leading_underscore=*/true);
    if (pos_ == digits) {
      while (IsIdentChar(Char())) ++pos_;
      Fail(From(start), fmt::format("invalid {} literal", RadixName(radix)));
    }
  } else {
    if (Char() != '.') ScanDigits(10, false);
    if (Char() == '.') {
      is_float = true;
      ++pos_;
      if (IsDigit(Char())) ScanDigits(10, false);
    }
    if ((Char() | 0x20) == 'e') {
      size_t sign = (Char(1) == '+' || Char(1) == '-') ? 1 : 0;
      if (IsDigit(Char(1 + sign))) {
        pos_ += 1 + sign;
        ScanDigits(10, false);
        is_float = true;
      }
    }
  }
  if (IsIdentChar(Char())) {
    size_t suffix = pos_;
    while (IsIdentChar(Char())) ++pos_;
    std::string_view tail = text_.substr(suffix, pos_ - suffix);
    if (radix == 10 && (tail == "j" || tail == "J")) Fail(From(start), "imaginary literals are not supported");
    Fail(From(start), fmt::format("invalid {} literal", RadixName(radix)));
  }
  std::string_view text = text_.substr(begin, pos_ - begin);
  if (!is_float && radix == 10 && text.size() > 1 && text[0] == '0' &&
      text.find_first_not_of("0_") != std::string_view::npos) {
    Fail(From(start), "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal");
  }
  return Make(is_float ? TokenKind::kFloat : TokenKind::kInt, begin, start);
}

// pos_ is at the opening quote; the token text starts at `begin` (the prefix).
Token Lexer::LexString(size_t begin, const Loc& start, bool raw) {
  char quote = static_cast<char>(Char());
  bool triple = Char(1) == quote && Char(2) == quote;
  pos_ += triple ? 3 : 1;
  std::string value;
  for (;;) {
    int c = Char();
    if (c < 0 || (!triple && AtNewline())) {
      if (triple) {
        ThrowError(MakeSpan(Loc{start.line, start.column, start.line, start.column + 3}),
                   fmt::format("unterminated triple-quoted string literal (detected at line {})", line_));
      }
      Fail(From(start), "unterminated string literal");
    }
    if (c == quote) {
      if (!triple) {
        ++pos_;
        break;
      }
      if (Char(1) == quote && Char(2) == quote) {
        pos_ += 3;
        break;
      }
    }
    if (c == '\\') {
      LexEscape(value, raw);
    } else if (AtNewline()) {
      value += '\n';
      ConsumeNewline();
    } else {
      value += static_cast<char>(c);
      ++pos_;
    }
  }
  Token token = Make(TokenKind::kString, begin, start);
  token.value = std::move(value);
  return token;
}

// pos_ is at a backslash inside a string; appends what it stands for.
void Lexer::LexEscape(std::string& value, bool raw) {
  Loc at = Here(2);
  ++pos_;
  int c = Char();
  if (c < 0) return;  // The caller reports the unterminated string.
  if (AtNewline()) {
    if (raw) value += "\\\n";
    ConsumeNewline();
    return;
  }
  ++pos_;
  if (raw) {
    value += '\\';
    value += static_cast<char>(c);
    return;
  }
  auto read_hex = [&](int digits, const char* name) {
    uint32_t cp = 0;
    for (int i = 0; i < digits; ++i) {
      int v = HexValue(Char());
      if (v < 0) Fail(From(at), fmt::format("truncated \\{} escape", name));
      cp = cp * 16 + static_cast<uint32_t>(v);
      ++pos_;
    }
    return cp;
  };
  switch (c) {
    case '\\': value += '\\'; return;
    case '\'': value += '\''; return;
    case '"': value += '"'; return;
    case 'a': value += '\a'; return;
    case 'b': value += '\b'; return;
    case 'f': value += '\f'; return;
    case 'n': value += '\n'; return;
    case 'r': value += '\r'; return;
    case 't': value += '\t'; return;
    case 'v': value += '\v'; return;
    case 'x': AppendUtf8(value, read_hex(2, "xXX")); return;
    case 'u': AppendUtf8(value, read_hex(4, "uXXXX")); return;
    case 'U': {
      uint32_t cp = read_hex(8, "UXXXXXXXX");
      if (cp > 0x10FFFF) Fail(From(at), "invalid \\U escape: code point out of range");
      AppendUtf8(value, cp);
      return;
    }
    case 'N': Fail(at, "\\N{...} escapes are not supported");
    default: break;
  }
  if (c >= '0' && c <= '7') {
    uint32_t cp = static_cast<uint32_t>(c - '0');
    for (int i = 0; i < 2 && Char() >= '0' && Char() <= '7'; ++i, ++pos_) cp = cp * 8 + static_cast<uint32_t>(Char() - '0');
    AppendUtf8(value, cp);
    return;
  }
  // Unknown escapes keep their backslash, as in Python.
  value += '\\';
  value += static_cast<char>(c);
}

Token Lexer::LexOperator() {
  size_t begin = pos_;
  Loc start = Here();
  std::string_view rest = text_.substr(pos_);
  for (const Spelled& op : OperatorsStartingWith(static_cast<unsigned char>(rest[0]))) {
    if (!rest.starts_with(op.spelling)) continue;
    pos_ += op.spelling.size();
    TrackBracket(op.kind, start);
    return Make(op.kind, begin, start);
  }
  Fail(Here(1), fmt::format("invalid character {}", DescribeChar(text_, pos_)));
}

void Lexer::TrackBracket(TokenKind kind, const Loc& loc) {
  Loc span{loc.line, loc.column, loc.line, loc.column + 1};
  if (char closer = CloserOf(kind)) {
    if (static_cast<int>(brackets_.size()) >= kMaxBracketDepth) {
      Fail(span, fmt::format("too many nested brackets (the limit is {})", kMaxBracketDepth));
    }
    brackets_.push_back({closer, span});
    return;
  }
  if (kind != TokenKind::kRParen && kind != TokenKind::kRBracket && kind != TokenKind::kRBrace) return;
  char closer = TokenKindName(kind)[0];
  if (brackets_.empty()) Fail(span, fmt::format("unmatched '{}'", closer));
  const OpenBracket& open = brackets_.back();
  if (open.closer != closer) {
    char opener = open.closer == ')' ? '(' : open.closer == ']' ? '[' : '{';
    Diagnostic diag{Severity::kError, MakeSpan(span),
                    fmt::format("closing '{}' does not match opening '{}' at {}:{}", closer, opener,
                                open.loc.line, open.loc.column),
                    {DiagnosticNote{MakeSpan(open.loc), fmt::format("'{}' opened here", opener)}}};
    throw CompileError(std::move(diag));
  }
  brackets_.pop_back();
}

std::vector<Token> Tokenize(SourceFilePtr source) {
  Lexer lexer(std::move(source));
  std::vector<Token> tokens;
  do {
    tokens.push_back(lexer.Next());
  } while (tokens.back().kind != TokenKind::kEndOfFile);
  return tokens;
}

}  // namespace rlx::py
