// Generic operations on the Python AST (rlx/text/py_ast.h): names of kinds
// and operators, ForEachChild and the s-expression Dump used by tests.
//
// Both ForEachChild and Dump are one switch over NodeKind; a new node kind
// must be added to both (the compiler's -Wswitch warns if one is missed).
#include <fmt/format.h>

#include "rlx/text/py_ast.h"

namespace rlx::py {

const char* NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kName: return "Name";
    case NodeKind::kConstant: return "Constant";
    case NodeKind::kAttribute: return "Attribute";
    case NodeKind::kCall: return "Call";
    case NodeKind::kSubscript: return "Subscript";
    case NodeKind::kSlice: return "Slice";
    case NodeKind::kTuple: return "Tuple";
    case NodeKind::kList: return "List";
    case NodeKind::kDict: return "Dict";
    case NodeKind::kBinOp: return "BinOp";
    case NodeKind::kUnaryOp: return "UnaryOp";
    case NodeKind::kBoolOp: return "BoolOp";
    case NodeKind::kCompare: return "Compare";
    case NodeKind::kIfExp: return "IfExp";
    case NodeKind::kLambda: return "Lambda";
    case NodeKind::kStarred: return "Starred";
    case NodeKind::kExprStmt: return "ExprStmt";
    case NodeKind::kAssign: return "Assign";
    case NodeKind::kAnnAssign: return "AnnAssign";
    case NodeKind::kAugAssign: return "AugAssign";
    case NodeKind::kReturn: return "Return";
    case NodeKind::kIf: return "If";
    case NodeKind::kFor: return "For";
    case NodeKind::kWhile: return "While";
    case NodeKind::kWith: return "With";
    case NodeKind::kFunctionDef: return "FunctionDef";
    case NodeKind::kClassDef: return "ClassDef";
    case NodeKind::kPass: return "Pass";
    case NodeKind::kBreak: return "Break";
    case NodeKind::kContinue: return "Continue";
    case NodeKind::kAssert: return "Assert";
    case NodeKind::kImport: return "Import";
    case NodeKind::kImportFrom: return "ImportFrom";
    case NodeKind::kModule: return "Module";
  }
  return "?";
}

const char* Spelling(BinOpKind op) {
  switch (op) {
    case BinOpKind::kAdd: return "+";
    case BinOpKind::kSub: return "-";
    case BinOpKind::kMult: return "*";
    case BinOpKind::kMatMult: return "@";
    case BinOpKind::kDiv: return "/";
    case BinOpKind::kFloorDiv: return "//";
    case BinOpKind::kMod: return "%";
    case BinOpKind::kPow: return "**";
    case BinOpKind::kLShift: return "<<";
    case BinOpKind::kRShift: return ">>";
    case BinOpKind::kBitOr: return "|";
    case BinOpKind::kBitXor: return "^";
    case BinOpKind::kBitAnd: return "&";
  }
  return "?";
}

const char* Spelling(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::kUAdd: return "+";
    case UnaryOpKind::kUSub: return "-";
    case UnaryOpKind::kNot: return "not";
    case UnaryOpKind::kInvert: return "~";
  }
  return "?";
}

const char* Spelling(BoolOpKind op) { return op == BoolOpKind::kAnd ? "and" : "or"; }

const char* Spelling(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::kEq: return "==";
    case CmpOpKind::kNotEq: return "!=";
    case CmpOpKind::kLt: return "<";
    case CmpOpKind::kLtE: return "<=";
    case CmpOpKind::kGt: return ">";
    case CmpOpKind::kGtE: return ">=";
    case CmpOpKind::kIs: return "is";
    case CmpOpKind::kIsNot: return "is not";
    case CmpOpKind::kIn: return "in";
    case CmpOpKind::kNotIn: return "not in";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// ForEachChild.

namespace {

using Visit = std::function<void(const Node&)>;

void VisitExpr(const ExprPtr& expr, const Visit& fn) {
  if (expr) fn(*expr);
}

void VisitExprs(const std::vector<ExprPtr>& exprs, const Visit& fn) {
  for (const ExprPtr& expr : exprs) VisitExpr(expr, fn);
}

void VisitStmts(const StmtList& stmts, const Visit& fn) {
  for (const StmtPtr& stmt : stmts) fn(*stmt);
}

void VisitKeywords(const std::vector<Keyword>& keywords, const Visit& fn) {
  for (const Keyword& keyword : keywords) VisitExpr(keyword.value, fn);
}

void VisitParams(const std::vector<Param>& params, const Visit& fn) {
  for (const Param& param : params) {
    VisitExpr(param.annotation, fn);
    VisitExpr(param.default_value, fn);
  }
}

void ExprChildren(const Node& node, const Visit& fn) {
  switch (node.kind) {
    case NodeKind::kAttribute: return VisitExpr(node.Cast<Attribute>().value, fn);
    case NodeKind::kCall: {
      const auto& call = node.Cast<Call>();
      VisitExpr(call.func, fn);
      VisitExprs(call.args, fn);
      return VisitKeywords(call.keywords, fn);
    }
    case NodeKind::kSubscript: {
      const auto& sub = node.Cast<Subscript>();
      VisitExpr(sub.value, fn);
      return VisitExpr(sub.index, fn);
    }
    case NodeKind::kSlice: {
      const auto& slice = node.Cast<Slice>();
      VisitExpr(slice.lower, fn);
      VisitExpr(slice.upper, fn);
      return VisitExpr(slice.step, fn);
    }
    case NodeKind::kTuple: return VisitExprs(node.Cast<Tuple>().elts, fn);
    case NodeKind::kList: return VisitExprs(node.Cast<List>().elts, fn);
    case NodeKind::kDict: {
      const auto& dict = node.Cast<Dict>();
      for (size_t i = 0; i < dict.keys.size(); ++i) {
        VisitExpr(dict.keys[i], fn);
        VisitExpr(dict.values[i], fn);
      }
      return;
    }
    case NodeKind::kBinOp: {
      const auto& binop = node.Cast<BinOp>();
      VisitExpr(binop.left, fn);
      return VisitExpr(binop.right, fn);
    }
    case NodeKind::kUnaryOp: return VisitExpr(node.Cast<UnaryOp>().operand, fn);
    case NodeKind::kBoolOp: return VisitExprs(node.Cast<BoolOp>().values, fn);
    case NodeKind::kCompare: {
      const auto& compare = node.Cast<Compare>();
      VisitExpr(compare.left, fn);
      return VisitExprs(compare.comparators, fn);
    }
    case NodeKind::kIfExp: {
      const auto& ifexp = node.Cast<IfExp>();
      VisitExpr(ifexp.body, fn);
      VisitExpr(ifexp.test, fn);
      return VisitExpr(ifexp.orelse, fn);
    }
    case NodeKind::kLambda: {
      const auto& lambda = node.Cast<Lambda>();
      VisitParams(lambda.params, fn);
      return VisitExpr(lambda.body, fn);
    }
    case NodeKind::kStarred: return VisitExpr(node.Cast<Starred>().value, fn);
    default: return;  // Name, Constant.
  }
}

void StmtChildren(const Node& node, const Visit& fn) {
  switch (node.kind) {
    case NodeKind::kExprStmt: return VisitExpr(node.Cast<ExprStmt>().value, fn);
    case NodeKind::kAssign: {
      const auto& assign = node.Cast<Assign>();
      VisitExpr(assign.target, fn);
      return VisitExpr(assign.value, fn);
    }
    case NodeKind::kAnnAssign: {
      const auto& assign = node.Cast<AnnAssign>();
      VisitExpr(assign.target, fn);
      VisitExpr(assign.annotation, fn);
      return VisitExpr(assign.value, fn);
    }
    case NodeKind::kAugAssign: {
      const auto& assign = node.Cast<AugAssign>();
      VisitExpr(assign.target, fn);
      return VisitExpr(assign.value, fn);
    }
    case NodeKind::kReturn: return VisitExpr(node.Cast<Return>().value, fn);
    case NodeKind::kIf: {
      const auto& stmt = node.Cast<If>();
      VisitExpr(stmt.test, fn);
      VisitStmts(stmt.body, fn);
      return VisitStmts(stmt.orelse, fn);
    }
    case NodeKind::kFor: {
      const auto& stmt = node.Cast<For>();
      VisitExpr(stmt.target, fn);
      VisitExpr(stmt.iter, fn);
      VisitStmts(stmt.body, fn);
      return VisitStmts(stmt.orelse, fn);
    }
    case NodeKind::kWhile: {
      const auto& stmt = node.Cast<While>();
      VisitExpr(stmt.test, fn);
      VisitStmts(stmt.body, fn);
      return VisitStmts(stmt.orelse, fn);
    }
    case NodeKind::kWith: {
      const auto& stmt = node.Cast<With>();
      for (const WithItem& item : stmt.items) {
        VisitExpr(item.context_expr, fn);
        VisitExpr(item.optional_vars, fn);
      }
      return VisitStmts(stmt.body, fn);
    }
    case NodeKind::kFunctionDef: {
      const auto& def = node.Cast<FunctionDef>();
      VisitExprs(def.decorators, fn);
      VisitParams(def.params, fn);
      VisitExpr(def.returns, fn);
      return VisitStmts(def.body, fn);
    }
    case NodeKind::kClassDef: {
      const auto& def = node.Cast<ClassDef>();
      VisitExprs(def.decorators, fn);
      VisitExprs(def.bases, fn);
      VisitKeywords(def.keywords, fn);
      return VisitStmts(def.body, fn);
    }
    case NodeKind::kAssert: {
      const auto& stmt = node.Cast<Assert>();
      VisitExpr(stmt.test, fn);
      return VisitExpr(stmt.msg, fn);
    }
    case NodeKind::kModule: return VisitStmts(node.Cast<Module>().body, fn);
    default: return;  // Pass, Break, Continue, Import, ImportFrom.
  }
}

}  // namespace

void ForEachChild(const Node& node, const std::function<void(const Node&)>& fn) {
  if (node.Is<Expr>()) {
    ExprChildren(node, fn);
  } else {
    StmtChildren(node, fn);
  }
}

// ---------------------------------------------------------------------------
// Dump.

namespace {

class Dumper {
 public:
  std::string Take() { return std::move(out_); }

  void DumpNode(const py::Node& node) {
    if (node.Is<Expr>()) {
      DumpExpr(node);
    } else {
      DumpStmt(node);
    }
  }

 private:
  void Open(const char* head) {
    out_ += '(';
    out_ += head;
  }
  void Close() { out_ += ')'; }
  void Sep() { out_ += ' '; }
  void Child(const ExprPtr& expr) {
    Sep();
    if (expr) {
      DumpNode(*expr);
    } else {
      out_ += '_';
    }
  }
  void Children(const std::vector<ExprPtr>& exprs) {
    for (const ExprPtr& expr : exprs) Child(expr);
  }
  void Body(const StmtList& stmts) {
    out_ += " (";
    for (size_t i = 0; i < stmts.size(); ++i) {
      if (i > 0) Sep();
      DumpNode(*stmts[i]);
    }
    out_ += ')';
  }
  void Keywords(const std::vector<Keyword>& keywords) {
    for (const Keyword& keyword : keywords) {
      Sep();
      out_ += keyword.name.empty() ? std::string("**") : keyword.name + "=";
      DumpNode(*keyword.value);
    }
  }
  void Params(const std::vector<Param>& params) {
    out_ += " (";
    for (size_t i = 0; i < params.size(); ++i) {
      if (i > 0) Sep();
      DumpParam(params[i]);
    }
    out_ += ')';
  }
  void DumpParam(const py::Param& param) {
    switch (param.kind) {
      case ParamKind::kVarArgs: out_ += '*'; break;
      case ParamKind::kKwOnlyMarker: out_ += '*'; return;
      case ParamKind::kKwArgs: out_ += "**"; break;
      case ParamKind::kPosOnlyMarker: out_ += '/'; return;
      case ParamKind::kRegular: break;
    }
    out_ += param.name;
    if (param.annotation) {
      out_ += ':';
      DumpNode(*param.annotation);
    }
    if (param.default_value) {
      out_ += '=';
      DumpNode(*param.default_value);
    }
  }
  void DumpAlias(const py::Alias& alias) {
    Sep();
    if (alias.asname.empty()) {
      out_ += alias.name;
    } else {
      out_ += fmt::format("(as {} {})", alias.name, alias.asname);
    }
  }
  void Quoted(const std::string& text) {
    out_ += '"';
    for (char c : text) {
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
            out_ += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
          } else {
            out_ += c;
          }
      }
    }
    out_ += '"';
  }

  void DumpConstant(const py::Constant& c) {
    switch (c.value_kind) {
      case ConstantKind::kInt:
      case ConstantKind::kFloat: out_ += c.text; return;
      case ConstantKind::kString: Quoted(c.string_value); return;
      case ConstantKind::kBool: out_ += c.bool_value ? "True" : "False"; return;
      case ConstantKind::kNone: out_ += "None"; return;
      case ConstantKind::kEllipsis: out_ += "..."; return;
    }
  }

  void DumpExpr(const py::Node& node);
  void DumpStmt(const py::Node& node);

  std::string out_;
};

void Dumper::DumpExpr(const py::Node& node) {
  switch (node.kind) {
    case NodeKind::kName: out_ += node.Cast<Name>().id; return;
    case NodeKind::kConstant: return DumpConstant(node.Cast<py::Constant>());
    case NodeKind::kAttribute: {
      const auto& attr = node.Cast<Attribute>();
      Open(".");
      Child(attr.value);
      out_ += ' ' + attr.attr;
      return Close();
    }
    case NodeKind::kCall: {
      const auto& call = node.Cast<Call>();
      Open("call");
      Child(call.func);
      Children(call.args);
      Keywords(call.keywords);
      return Close();
    }
    case NodeKind::kSubscript: {
      const auto& sub = node.Cast<Subscript>();
      Open("sub");
      Child(sub.value);
      Child(sub.index);
      return Close();
    }
    case NodeKind::kSlice: {
      const auto& slice = node.Cast<Slice>();
      Open("slice");
      Child(slice.lower);
      Child(slice.upper);
      Child(slice.step);
      return Close();
    }
    case NodeKind::kTuple:
      Open("tuple");
      Children(node.Cast<Tuple>().elts);
      return Close();
    case NodeKind::kList:
      Open("list");
      Children(node.Cast<List>().elts);
      return Close();
    case NodeKind::kDict: {
      const auto& dict = node.Cast<Dict>();
      Open("dict");
      for (size_t i = 0; i < dict.keys.size(); ++i) {
        out_ += dict.keys[i] ? " (" : " (**";
        if (dict.keys[i]) {
          DumpNode(*dict.keys[i]);
          Sep();
        }
        DumpNode(*dict.values[i]);
        Close();
      }
      return Close();
    }
    case NodeKind::kBinOp: {
      const auto& binop = node.Cast<BinOp>();
      Open(Spelling(binop.op));
      Child(binop.left);
      Child(binop.right);
      return Close();
    }
    case NodeKind::kUnaryOp: {
      const auto& unary = node.Cast<UnaryOp>();
      static constexpr const char* kHeads[] = {"pos", "neg", "not", "~"};
      Open(kHeads[static_cast<int>(unary.op)]);
      Child(unary.operand);
      return Close();
    }
    case NodeKind::kBoolOp: {
      const auto& boolop = node.Cast<BoolOp>();
      Open(Spelling(boolop.op));
      Children(boolop.values);
      return Close();
    }
    case NodeKind::kCompare: {
      const auto& compare = node.Cast<Compare>();
      Open("cmp");
      Child(compare.left);
      for (size_t i = 0; i < compare.ops.size(); ++i) {
        CmpOpKind op = compare.ops[i];
        out_ += op == CmpOpKind::kIsNot ? " is-not" : op == CmpOpKind::kNotIn ? " not-in" : fmt::format(" {}", Spelling(op));
        Child(compare.comparators[i]);
      }
      return Close();
    }
    case NodeKind::kIfExp: {
      const auto& ifexp = node.Cast<IfExp>();
      Open("ifexp");
      Child(ifexp.test);
      Child(ifexp.body);
      Child(ifexp.orelse);
      return Close();
    }
    case NodeKind::kLambda: {
      const auto& lambda = node.Cast<Lambda>();
      Open("lambda");
      Params(lambda.params);
      Child(lambda.body);
      return Close();
    }
    case NodeKind::kStarred:
      Open("*");
      Child(node.Cast<Starred>().value);
      return Close();
    default:
      RLX_UNREACHABLE() << NodeKindName(node.kind);
  }
}

void Dumper::DumpStmt(const py::Node& node) {
  switch (node.kind) {
    case NodeKind::kExprStmt:
      Open("expr");
      Child(node.Cast<ExprStmt>().value);
      return Close();
    case NodeKind::kAssign: {
      const auto& assign = node.Cast<Assign>();
      Open("=");
      Child(assign.target);
      Child(assign.value);
      return Close();
    }
    case NodeKind::kAnnAssign: {
      const auto& assign = node.Cast<AnnAssign>();
      Open("ann");
      Child(assign.target);
      Child(assign.annotation);
      if (assign.value) Child(assign.value);
      return Close();
    }
    case NodeKind::kAugAssign: {
      const auto& assign = node.Cast<AugAssign>();
      Open(fmt::format("{}=", Spelling(assign.op)).c_str());
      Child(assign.target);
      Child(assign.value);
      return Close();
    }
    case NodeKind::kReturn: {
      const auto& ret = node.Cast<Return>();
      Open("return");
      if (ret.value) Child(ret.value);
      return Close();
    }
    case NodeKind::kIf: {
      const auto& stmt = node.Cast<If>();
      Open("if");
      Child(stmt.test);
      Body(stmt.body);
      if (!stmt.orelse.empty()) Body(stmt.orelse);
      return Close();
    }
    case NodeKind::kFor: {
      const auto& stmt = node.Cast<For>();
      Open("for");
      Child(stmt.target);
      Child(stmt.iter);
      Body(stmt.body);
      if (!stmt.orelse.empty()) Body(stmt.orelse);
      return Close();
    }
    case NodeKind::kWhile: {
      const auto& stmt = node.Cast<While>();
      Open("while");
      Child(stmt.test);
      Body(stmt.body);
      if (!stmt.orelse.empty()) Body(stmt.orelse);
      return Close();
    }
    case NodeKind::kWith: {
      const auto& stmt = node.Cast<With>();
      Open("with");
      for (const WithItem& item : stmt.items) {
        if (!item.optional_vars) {
          Child(item.context_expr);
          continue;
        }
        out_ += " (as";
        Child(item.context_expr);
        Child(item.optional_vars);
        Close();
      }
      Body(stmt.body);
      return Close();
    }
    case NodeKind::kFunctionDef: {
      const auto& def = node.Cast<FunctionDef>();
      Open("def");
      out_ += ' ' + def.name;
      for (const ExprPtr& decorator : def.decorators) {
        out_ += " @";
        DumpNode(*decorator);
      }
      Params(def.params);
      if (def.returns) {
        out_ += " ->";
        Child(def.returns);
      }
      Body(def.body);
      return Close();
    }
    case NodeKind::kClassDef: {
      const auto& def = node.Cast<ClassDef>();
      Open("class");
      out_ += ' ' + def.name;
      for (const ExprPtr& decorator : def.decorators) {
        out_ += " @";
        DumpNode(*decorator);
      }
      out_ += " (";
      for (size_t i = 0; i < def.bases.size(); ++i) {
        if (i > 0) Sep();
        DumpNode(*def.bases[i]);
      }
      Close();
      Keywords(def.keywords);
      Body(def.body);
      return Close();
    }
    case NodeKind::kPass: out_ += "(pass)"; return;
    case NodeKind::kBreak: out_ += "(break)"; return;
    case NodeKind::kContinue: out_ += "(continue)"; return;
    case NodeKind::kAssert: {
      const auto& stmt = node.Cast<Assert>();
      Open("assert");
      Child(stmt.test);
      if (stmt.msg) Child(stmt.msg);
      return Close();
    }
    case NodeKind::kImport:
      Open("import");
      for (const py::Alias& alias : node.Cast<Import>().names) DumpAlias(alias);
      return Close();
    case NodeKind::kImportFrom: {
      const auto& stmt = node.Cast<ImportFrom>();
      Open("from");
      out_ += ' ' + std::string(static_cast<size_t>(stmt.level), '.') + stmt.module;
      for (const py::Alias& alias : stmt.names) DumpAlias(alias);
      return Close();
    }
    case NodeKind::kModule: {
      Open("module");
      for (const StmtPtr& stmt : node.Cast<Module>().body) {
        Sep();
        DumpNode(*stmt);
      }
      return Close();
    }
    default:
      RLX_UNREACHABLE() << NodeKindName(node.kind);
  }
}

}  // namespace

std::string Dump(const Node& node) {
  Dumper dumper;
  dumper.DumpNode(node);
  return dumper.Take();
}

}  // namespace rlx::py
