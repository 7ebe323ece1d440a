// TVMScript printer: documents, names, attribute values and entry points.
//
// See printer_internal.h for the model (documents, frames, precedence). This
// file holds what both levels share:
// - rendering documents to text (four-space indentation, `pass` for an
//   empty block, a blank line after each `def`);
// - the scoped name table (unique names, `_1` suffixes, released per frame);
// - the header comments, which list only the dialects the text used, in
//   TVM's order (ir, tir, relax);
// - attribute values: function/module attribute dictionaries print in the
//   spelling of the level they belong to (`T.bool(True)` in a PrimFunc,
//   `True` in a graph function, as TVM), operator attributes by their
//   declared AttrKind (`axis=[1]`, `keepdims=False`, `dtype="float16"`);
// - the public functions of text/printer.h.
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "rlx/op/op.h"
#include "rlx/text/printer.h"
#include "text/printer_internal.h"

namespace rlx::text {
namespace detail {

// ---------------------------------------------------------------------------
// Documents and literals.

Doc Line(std::string text) {
  Doc doc;
  doc.line = std::move(text);
  return doc;
}

Doc Block(std::string header, Docs body) {
  Doc doc;
  doc.line = std::move(header);
  doc.opens_block = true;
  doc.body = std::move(body);
  return doc;
}

void Append(Docs* to, Docs from) {
  for (Doc& doc : from) to->push_back(std::move(doc));
}

namespace {

void RenderInto(const Docs& docs, int indent, std::string* out) {
  for (const Doc& doc : docs) {
    if (!doc.line.empty()) out->append(indent, ' ');
    *out += doc.line;
    *out += '\n';
    if (doc.opens_block) {
      if (doc.body.empty()) {
        out->append(indent + 4, ' ');
        *out += "pass\n";
      } else {
        RenderInto(doc.body, indent + 4, out);
      }
    }
    if (doc.blank_line_after) *out += '\n';
  }
}

std::string TrimTrailingSpace(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

bool IsPythonKeyword(const std::string& name) {
  static const std::unordered_set<std::string> kKeywords = {
      "False", "None",   "True",    "and",      "as",     "assert", "async", "await",
      "break", "class",  "continue", "def",     "del",    "elif",   "else",  "except",
      "finally", "for",  "from",    "global",   "if",     "import", "in",    "is",
      "lambda", "nonlocal", "not",  "or",       "pass",   "raise",  "return", "try",
      "while", "with",   "yield"};
  return kKeywords.count(name) > 0;
}

// Letters, digits and '_' only, not starting with a digit (TVM replaces
// other characters by '_' too).
std::string SanitizeName(std::string name) {
  for (char& c : name) {
    if (c != '_' && !std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) name = "_" + name;
  return name;
}

}  // namespace

std::string RenderDocs(const Docs& docs) {
  std::string out;
  RenderInto(docs, 0, &out);
  return out;
}

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string FloatLiteral(double value) {
  if (std::isnan(value)) return "\"nan\"";
  if (std::isinf(value)) return value > 0 ? "\"inf\"" : "\"-inf\"";
  if (std::nearbyint(value) == value && std::fabs(value) < 1e16) return fmt::format("{:.1f}", value);
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string DTypeString(DataType dtype) { return dtype.is_void() ? "void" : dtype.ToString(); }

// ---------------------------------------------------------------------------
// Frames and names.

ScriptPrinter::ScriptPrinter(ir::IRModule module) : module_(std::move(module)) {
  op::RegisterAllOps();  // operator calls print by their registered spelling
  for (const char* builtin : {"I", "T", "R", "cls"}) Reserve(builtin);
}

ScriptPrinter::FrameGuard::FrameGuard(ScriptPrinter* printer, FrameKind kind) : printer_(printer) {
  printer->frames_.push_back(std::make_unique<Frame>(kind));
  frame_ = printer->frames_.back().get();
}

ScriptPrinter::FrameGuard::~FrameGuard() {
  for (const Node* node : frame_->defined) {
    auto it = printer_->names_.find(node);
    if (it == printer_->names_.end()) continue;
    if (printer_->aliases_.erase(node) == 0) printer_->used_names_.erase(it->second);
    printer_->names_.erase(it);
  }
  RLX_ICHECK(printer_->frames_.back().get() == frame_) << "printer frames popped out of order";
  printer_->frames_.pop_back();
}

std::string ScriptPrinter::UniqueName(const std::string& hint) const {
  std::string base = SanitizeName(hint);
  auto taken = [&](const std::string& name) { return used_names_.count(name) > 0 || IsPythonKeyword(name); };
  std::string name = base;
  for (int i = 1; taken(name); ++i) name = base + "_" + std::to_string(i);
  return name;
}

std::string ScriptPrinter::Define(const Node* node, Frame& frame, const std::string& hint) {
  std::string name = UniqueName(hint);
  used_names_.insert(name);
  names_[node] = name;
  frame.defined.push_back(node);
  return name;
}

void ScriptPrinter::DefineAlias(const Node* node, Frame& frame, const std::string& text) {
  names_[node] = text;
  aliases_.insert(node);
  frame.defined.push_back(node);
}

std::string ScriptPrinter::I(const std::string& attr) {
  uses_ir_ = true;
  return "I." + attr;
}
std::string ScriptPrinter::T(const std::string& attr) {
  uses_tir_ = true;
  return "T." + attr;
}
std::string ScriptPrinter::R(const std::string& attr) {
  uses_relax_ = true;
  return "R." + attr;
}

std::string ScriptPrinter::WithHeader(const Docs& docs) {
  std::string header;
  if (uses_ir_) header += "# from tvm.script import ir as I\n";
  if (uses_tir_) header += "# from tvm.script import tir as T\n";
  if (uses_relax_) header += "# from tvm.script import relax as R\n";
  if (!header.empty()) header += "\n";
  return TrimTrailingSpace(header + RenderDocs(docs)) + "\n";
}

// ---------------------------------------------------------------------------
// Attribute values.

std::string ScriptPrinter::AttrValue(const ObjectRef& value) {
  if (!value.defined()) return "None";
  if (const auto* imm = value.as<ir::IntImmNode>()) {
    if (imm->dtype.is_bool() && relax_mode_) return imm->value ? "True" : "False";
    if (relax_mode_) return std::to_string(imm->value);
    return Expr(cast<ir::PrimExprNode>(value));
  }
  if (const auto* imm = value.as<ir::FloatImmNode>()) {
    if (relax_mode_ && imm->dtype == DataType::Float(64)) return FloatLiteral(imm->value);
    return Expr(cast<ir::PrimExprNode>(value));
  }
  if (const auto* str = value.as<ir::StringImmNode>()) return Quote(str->value);
  if (value.isa<ir::PrimExprNode>()) return Expr(cast<ir::PrimExprNode>(value));
  if (const auto* array = value.as<ir::ArrayNode>()) {
    std::string out = "[";
    for (size_t i = 0; i < array->elements.size(); ++i) {
      if (i) out += ", ";
      out += AttrValue(array->elements[i]);
    }
    return out + "]";
  }
  if (value.isa<ir::DictNode>()) return DictText(cast<ir::DictNode>(value));
  if (value.isa<graph::StructInfoNode>()) return SInfo(cast<graph::StructInfoNode>(value));
  if (value.isa<graph::ExprNode>()) return RelaxExpr(cast<graph::ExprNode>(value));
  if (value.isa<ir::BufferNode>()) return BufferName(cast<ir::BufferNode>(value));
  return Quote(std::string("<") + NodeKindName(value->kind()) + ">");
}

std::string ScriptPrinter::DictText(const ir::Dict& dict, const std::string& drop_key) {
  std::string out = "{";
  bool first = true;
  if (dict.defined()) {
    for (const auto& [key, value] : dict->items) {
      if (!drop_key.empty() && key == drop_key) continue;
      if (!first) out += ", ";
      first = false;
      out += Quote(key) + ": " + AttrValue(value);
    }
  }
  return out + "}";
}

namespace {

std::optional<int64_t> IntValue(const ObjectRef& value) {
  if (const auto* imm = value.as<ir::IntImmNode>()) return imm->value;
  return std::nullopt;
}

}  // namespace

std::string ScriptPrinter::OpAttrValue(const ObjectRef& value, graph::AttrKind kind) {
  using graph::AttrKind;
  if (!value.defined()) return "None";
  switch (kind) {
    case AttrKind::kInt:
    case AttrKind::kOptionalInt:
      if (auto v = IntValue(value)) return std::to_string(*v);
      break;
    case AttrKind::kIntList:
    case AttrKind::kOptionalIntList:
      if (auto v = IntValue(value)) return "[" + std::to_string(*v) + "]";  // `axis=1` means `axis=[1]`
      if (const auto* array = value.as<ir::ArrayNode>()) {
        std::string out = "[";
        for (size_t i = 0; i < array->elements.size(); ++i) {
          if (i) out += ", ";
          auto v = IntValue(array->elements[i]);
          out += v ? std::to_string(*v) : AttrValue(array->elements[i]);
        }
        return out + "]";
      }
      break;
    case AttrKind::kFloat:
      if (const auto* imm = value.as<ir::FloatImmNode>()) return FloatLiteral(imm->value);
      if (auto v = IntValue(value)) return FloatLiteral(static_cast<double>(*v));
      break;
    case AttrKind::kBool:
      if (auto v = IntValue(value)) return *v ? "True" : "False";
      break;
    case AttrKind::kString:
    case AttrKind::kOptionalString:
      if (const auto* str = value.as<ir::StringImmNode>()) return Quote(str->value);
      break;
    case AttrKind::kDataType:
      if (const auto* str = value.as<ir::StringImmNode>()) return Quote(str->value.empty() ? "void" : str->value);
      break;
    case AttrKind::kPrimExprList:
      if (const auto* array = value.as<ir::ArrayNode>()) {
        std::vector<std::string> items;
        for (const ObjectRef& item : array->elements) {
          items.push_back(item.isa<ir::PrimExprNode>() ? ShapeVar(cast<ir::PrimExprNode>(item)) : AttrValue(item));
        }
        std::string out = "(" + fmt::format("{}", fmt::join(items, ", "));
        return out + (items.size() == 1 ? ",)" : ")");
      }
      break;
    case AttrKind::kIndexMap:
      if (const auto* pair = value.as<ir::ArrayNode>(); pair != nullptr && pair->elements.size() == 2) {
        return IndexMapText(*pair);
      }
      break;
    case AttrKind::kOptionalPrimValue:
    case AttrKind::kAny:
    case AttrKind::kOptionalAny:
      break;
  }
  return AttrValue(value);
}

// `T.index_map(lambda i, j: (i // 4, j))`: the lambda's parameters are
// defined in a frame of their own (renamed when an outer name is taken).
std::string ScriptPrinter::IndexMapText(const ir::ArrayNode& pair) {
  const auto* params = pair.elements[0].as<ir::ArrayNode>();
  const auto* results = pair.elements[1].as<ir::ArrayNode>();
  if (params == nullptr || results == nullptr) return AttrValue(ObjectRef(&pair));
  FrameGuard frame(this, FrameKind::kTIR);
  std::vector<std::string> names;
  for (const ObjectRef& param : params->elements) {
    const auto* var = param.as<ir::VarNode>();
    names.push_back(var != nullptr ? Define(var, *frame, var->name_hint) : AttrValue(param));
  }
  std::vector<std::string> items;
  for (const ObjectRef& result : results->elements) {
    items.push_back(result.isa<ir::PrimExprNode>() ? Expr(cast<ir::PrimExprNode>(result)) : AttrValue(result));
  }
  std::string tuple = "(" + fmt::format("{}", fmt::join(items, ", ")) + (items.size() == 1 ? ",)" : ")");
  return T("index_map") + "(lambda " + fmt::format("{}", fmt::join(names, ", ")) + ": " + tuple + ")";
}

// ---------------------------------------------------------------------------
// Entry points.

std::string ScriptPrinter::ModuleText(const ir::IRModule& module) {
  module_ = module;
  FrameGuard module_frame(this, FrameKind::kModule);
  std::string class_name = Define(module.get(), *module_frame, "Module");
  Docs body;
  if (module->attrs.defined() && !module->attrs->items.empty()) {
    body.push_back(Line(I("module_attrs") + "(" + DictText(module->attrs) + ")"));
  }
  if (module->global_infos.defined() && !module->global_infos->items.empty()) {
    body.push_back(Line(I("module_global_infos") + "(" + DictText(module->global_infos) + ")"));
  }
  for (const auto& [name, func] : module->functions) {
    if (func.isa<tir::PrimFuncNode>()) {
      Append(&body, PrimFuncDocs(cast<tir::PrimFuncNode>(func), name));
    } else if (func.isa<graph::FunctionNode>()) {
      Append(&body, FunctionDocs(cast<graph::FunctionNode>(func), name, /*top_level=*/true));
    } else if (const auto* extern_func = func.as<graph::ExternFuncNode>()) {
      body.push_back(Line(name + " = " + R("ExternFunc") + "(" + Quote(extern_func->global_symbol) + ")"));
    } else {
      body.push_back(Line("# " + name + ": unprintable " + NodeKindName(func->kind())));
    }
  }
  Docs docs;
  docs.push_back(Line("@" + I("ir_module")));
  docs.push_back(Block("class " + class_name + ":", std::move(body)));
  return WithHeader(docs);
}

std::string ScriptPrinter::PrimFuncText(const tir::PrimFunc& func, const std::string& name) {
  FrameGuard root(this, FrameKind::kRoot);
  return WithHeader(PrimFuncDocs(func, name));
}

std::string ScriptPrinter::FunctionText(const graph::Function& func, const std::string& name) {
  FrameGuard root(this, FrameKind::kRoot);
  return WithHeader(FunctionDocs(func, name, /*top_level=*/true));
}

std::string ScriptPrinter::StructInfoText(const graph::StructInfo& sinfo) {
  relax_mode_ = true;
  FrameGuard frame(this, FrameKind::kRelax);
  return SInfo(sinfo);
}

std::string ScriptPrinter::PrimExprText(const ir::PrimExpr& expr) {
  relax_mode_ = false;
  FrameGuard frame(this, FrameKind::kTIR);
  return Expr(expr);
}

std::string ScriptPrinter::AnyText(const ObjectRef& node) {
  if (!node.defined()) return "None";
  if (node.isa<ir::IRModuleNode>()) return ModuleText(cast<ir::IRModuleNode>(node));
  if (node.isa<tir::PrimFuncNode>()) return PrimFuncText(cast<tir::PrimFuncNode>(node), "main");
  if (node.isa<graph::FunctionNode>()) return FunctionText(cast<graph::FunctionNode>(node), "main");
  if (node.isa<graph::StructInfoNode>()) return StructInfoText(cast<graph::StructInfoNode>(node));
  if (node.isa<ir::PrimExprNode>()) return PrimExprText(cast<ir::PrimExprNode>(node));
  relax_mode_ = node.isa<graph::ExprNode>() || node.isa<graph::BindingNode>() || node.isa<graph::BindingBlockNode>();
  FrameGuard frame(this, relax_mode_ ? FrameKind::kRelax : FrameKind::kTIR);
  frame->allow_concise = true;
  Docs docs;
  if (node.isa<tir::StmtNode>()) {
    docs = PrintStmt(cast<tir::StmtNode>(node));
  } else if (node.isa<graph::SeqExprNode>()) {
    docs = SeqExprDocs(cast<graph::ExprNode>(node), /*use_return=*/false);
  } else if (node.isa<graph::ExprNode>()) {
    // An expression prints alone, without the declarations of the free
    // variables it mentions (TVM's non-verbose form).
    return RelaxExpr(cast<graph::ExprNode>(node));
  } else if (node.isa<graph::BindingNode>()) {
    docs = BindingDocs(cast<graph::BindingNode>(node));
  } else if (node.isa<graph::BindingBlockNode>()) {
    docs = BindingBlockDocs(cast<graph::BindingBlockNode>(node));
  } else if (node.isa<ir::BufferNode>()) {
    docs.push_back(Line(BufferDecl(cast<ir::BufferNode>(node), "Buffer", "", *frame, true)));
  } else if (node.isa<tir::BufferRegionNode>()) {
    docs.push_back(Line(RegionText(cast<tir::BufferRegionNode>(node))));
  } else if (const auto* iter = node.as<tir::IterVarNode>()) {
    docs.push_back(Line(fmt::format("{}({}, {}({}, {}), {})", T("iter_var"), Expr(iter->var), T("Range"),
                                    Expr(iter->dom.min), Expr(iter->dom.extent),
                                    Quote(tir::IterKindName(iter->iter_kind)))));
  } else if (const auto* match = node.as<tir::MatchBufferRegionNode>()) {
    std::string source = RegionText(match->source);
    docs.push_back(Line(DefineBuffer(match->buffer, *frame) + " = " +
                        BufferDecl(match->buffer, "match_buffer", source, *frame, true)));
  } else {
    docs.push_back(Line(AttrValue(node)));
  }
  Docs all = std::move(frame->stmts);
  Append(&all, std::move(docs));
  return TrimTrailingSpace(RenderDocs(all));
}

}  // namespace detail

std::string PrintModule(const ir::IRModule& module) { return detail::ScriptPrinter(module).ModuleText(module); }

std::string PrintPrimFunc(const tir::PrimFunc& func, const std::string& name) {
  return detail::ScriptPrinter().PrimFuncText(func, name);
}

std::string PrintFunction(const graph::Function& func, const std::string& name) {
  return detail::ScriptPrinter().FunctionText(func, name);
}

std::string PrintStructInfo(const graph::StructInfo& sinfo) { return detail::ScriptPrinter().StructInfoText(sinfo); }

std::string PrintPrimExpr(const ir::PrimExpr& expr) { return detail::ScriptPrinter().PrimExprText(expr); }

std::string Print(const ObjectRef& node) { return detail::ScriptPrinter().AnyText(node); }

}  // namespace rlx::text
