// einsum(operands, subscripts): Einstein summation over a tuple of tensors.
//
// Subscripts follow numpy: comma-separated input terms of letters with at
// most one "..." each, then optionally "->" and the output term; without
// "->" the output is the ellipsis dims followed by the letters that appear
// exactly once, in alphabetical order.
//
// Deduction (after TVM's src/relax/op/tensor/linear_algebra.cc): one term
// per operand; an operand's rank equals its letter count (at least that
// with "..."); all dims named by one letter must agree (a provable
// difference is an error naming the letter and the operands' shapes); the
// ellipsis dims of all operands broadcast like numpy. The result has the
// ellipsis dims, then the output letters' dims, and the operands' common
// dtype.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "attr_util.h"
#include "einsum_subscripts.h"
#include "op_common.h"
#include "rlx/op/statistical.h"

namespace rlx::op {
namespace detail {

namespace {

bool ParseTerm(const std::string& text, EinsumTerm* term, std::string* error) {
  size_t dots = text.find("...");
  term->has_ellipsis = dots != std::string::npos;
  term->letters_before = term->has_ellipsis ? text.substr(0, dots) : text;
  term->letters_after = term->has_ellipsis ? text.substr(dots + 3) : "";
  for (const std::string* part : {&term->letters_before, &term->letters_after}) {
    for (char c : *part) {
      if (!std::isalpha(static_cast<unsigned char>(c))) {
        *error = fmt::format("invalid subscript '{}' in \"{}\"", c, text);
        return false;
      }
    }
  }
  return true;
}

EinsumTerm ImplicitOutput(const std::vector<EinsumTerm>& inputs) {
  std::map<char, int> counts;
  bool ellipsis = false;
  for (const EinsumTerm& term : inputs) {
    for (char c : term.letters_before + term.letters_after) ++counts[c];
    ellipsis = ellipsis || term.has_ellipsis;
  }
  EinsumTerm output;
  output.has_ellipsis = ellipsis;
  std::string& letters = ellipsis ? output.letters_after : output.letters_before;
  for (const auto& [c, count] : counts) {
    if (count == 1) letters.push_back(c);
  }
  return output;
}

}  // namespace

std::optional<EinsumSpec> ParseEinsumSubscripts(const std::string& subscripts, std::string* error) {
  std::string text;
  for (char c : subscripts) {
    if (c != ' ') text.push_back(c);
  }
  size_t arrow = text.find("->");
  std::string lhs = arrow == std::string::npos ? text : text.substr(0, arrow);
  EinsumSpec spec;
  size_t start = 0;
  while (true) {
    size_t comma = lhs.find(',', start);
    EinsumTerm term;
    if (!ParseTerm(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start), &term, error)) {
      return std::nullopt;
    }
    spec.inputs.push_back(term);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (arrow == std::string::npos) {
    spec.output = ImplicitOutput(spec.inputs);
    return spec;
  }
  if (!ParseTerm(text.substr(arrow + 2), &spec.output, error)) return std::nullopt;
  std::string out_letters = spec.output.letters_before + spec.output.letters_after;
  for (size_t i = 0; i < out_letters.size(); ++i) {
    char c = out_letters[i];
    if (out_letters.find(c, i + 1) != std::string::npos) {
      *error = fmt::format("output subscript '{}' appears more than once", c);
      return std::nullopt;
    }
    bool found = std::any_of(spec.inputs.begin(), spec.inputs.end(), [&](const EinsumTerm& t) {
      return (t.letters_before + t.letters_after).find(c) != std::string::npos;
    });
    if (!found) {
      *error = fmt::format("output subscript '{}' does not appear in the inputs", c);
      return std::nullopt;
    }
  }
  return spec;
}

namespace {

std::vector<TensorStructInfo> EinsumOperands(const Call& call) {
  StructInfo sinfo = graph::GetStructInfo(call->args[0]);
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  if (tuple == nullptr) {
    ThrowOpError(call, fmt::format("expected a tuple of tensors for 'operands', got {}", graph::ToString(sinfo)));
  }
  std::vector<TensorStructInfo> operands;
  for (const StructInfo& field : tuple->fields) {
    TensorStructInfo tensor = dyn_cast<graph::TensorStructInfoNode>(field);
    if (!tensor.defined()) {
      ThrowOpError(call, fmt::format("expected a tuple of tensors for 'operands', got {}", graph::ToString(sinfo)));
    }
    operands.push_back(tensor);
  }
  return operands;
}

struct EinsumShapes {
  std::map<char, PrimExpr> letter_dims;
  Shape ellipsis;  // broadcast over every operand
  bool undecidable = false;
};

void CollectLetters(const Call& call, BlockBuilder& builder, const std::string& letters, const Shape& dims,
                    size_t first, const std::string& shapes_text, EinsumShapes* shapes) {
  for (size_t i = 0; i < letters.size(); ++i) {
    const PrimExpr& dim = dims[first + i];
    auto [it, inserted] = shapes->letter_dims.emplace(letters[i], dim);
    if (!inserted && ProvablyDifferent(builder.analyzer(), it->second, dim)) {
      ThrowOpError(call, fmt::format("subscript '{}' has different sizes {} and {}; operand shapes are {}",
                                     letters[i], ir::ToString(it->second), ir::ToString(dim), shapes_text));
    }
  }
}

std::string ShapesText(const std::vector<TensorStructInfo>& operands) {
  std::vector<std::string> texts;
  for (const TensorStructInfo& t : operands) {
    std::optional<Shape> shape = t->GetShape();
    texts.push_back(shape ? ir::ShapeToString(*shape) : graph::ToString(t));
  }
  return fmt::format("{}", fmt::join(texts, ", "));
}

void CheckRanks(const Call& call, const EinsumSpec& spec, const std::vector<TensorStructInfo>& operands) {
  if (spec.inputs.size() != operands.size()) {
    ThrowOpError(call, fmt::format("subscripts name {} operands, got {}", spec.inputs.size(), operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    int letters = static_cast<int>(spec.inputs[i].num_letters());
    int ndim = operands[i]->ndim;
    if (ndim < 0) continue;
    if (spec.inputs[i].has_ellipsis ? ndim < letters : ndim != letters) {
      ThrowOpError(call, fmt::format("operand {} has rank {}, but its subscripts name {} dims; operand shapes are {}",
                                     i, ndim, letters, ShapesText(operands)));
    }
  }
}

StructInfo InferEinsumSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  std::vector<TensorStructInfo> operands = EinsumOperands(call);
  std::string error;
  std::optional<EinsumSpec> spec = ParseEinsumSubscripts(GetStringAttr(call, "subscripts", ""), &error);
  if (!spec) ThrowOpError(call, error);
  CheckRanks(call, *spec, operands);
  DataType dtype = DataType::Void();
  for (size_t i = 0; i < operands.size(); ++i) dtype = i == 0 ? operands[0]->dtype : UnifyDtypes(call, dtype, operands[i]->dtype);

  EinsumShapes shapes;
  std::string shapes_text = ShapesText(operands);
  bool all_known = true;
  int ellipsis_rank = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    std::optional<Shape> shape = operands[i]->GetShape();
    if (!shape) {
      all_known = false;
      continue;
    }
    const EinsumTerm& term = spec->inputs[i];
    size_t extra = shape->size() - term.num_letters();
    CollectLetters(call, builder, term.letters_before, *shape, 0, shapes_text, &shapes);
    CollectLetters(call, builder, term.letters_after, *shape, term.letters_before.size() + extra, shapes_text, &shapes);
    Shape ellipsis(shape->begin() + static_cast<std::ptrdiff_t>(term.letters_before.size()),
                   shape->begin() + static_cast<std::ptrdiff_t>(term.letters_before.size() + extra));
    BroadcastResult broadcast = BroadcastShapes(builder.analyzer(), shapes.ellipsis, ellipsis);
    if (broadcast.status == BroadcastResult::Status::kMismatch) {
      ThrowOpError(call, fmt::format("the '...' dims of the operands do not broadcast; operand shapes are {}",
                                     shapes_text));
    }
    ellipsis_rank = std::max(ellipsis_rank, static_cast<int>(ellipsis.size()));
    if (broadcast.status == BroadcastResult::Status::kUndecidable) shapes.undecidable = true;
    else shapes.ellipsis = broadcast.shape;
  }
  int out_ndim = static_cast<int>(spec->output.num_letters()) + (spec->output.has_ellipsis ? ellipsis_rank : 0);
  if (!all_known || shapes.undecidable) {
    bool rank_known = std::all_of(operands.begin(), operands.end(), [](const TensorStructInfo& t) { return t->ndim >= 0; });
    if (!rank_known && spec->output.has_ellipsis) return graph::TensorSInfo(dtype, -1);
    if (!all_known && spec->output.has_ellipsis) {
      // The ellipsis rank needs every operand's rank.
      int rank = 0;
      for (size_t i = 0; i < operands.size(); ++i) {
        rank = std::max(rank, operands[i]->ndim - static_cast<int>(spec->inputs[i].num_letters()));
      }
      return graph::TensorSInfo(dtype, static_cast<int>(spec->output.num_letters()) + rank);
    }
    return graph::TensorSInfo(dtype, out_ndim);
  }
  Shape out;
  for (char c : spec->output.letters_before) out.push_back(shapes.letter_dims.at(c));
  if (spec->output.has_ellipsis) out.insert(out.end(), shapes.ellipsis.begin(), shapes.ellipsis.end());
  for (char c : spec->output.letters_after) out.push_back(shapes.letter_dims.at(c));
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), out), dtype);
}

}  // namespace

void RegisterEinsumOps() {
  graph::RegisterOp(MakeOpInfo("einsum", {"operands"}, InferEinsumSInfo, graph::OpPatternKind::kOutEWiseFusable,
                               {{"subscripts", graph::AttrKind::kString, ObjectRef()}}));
}

}  // namespace detail

Call einsum(Expr operands, std::string subscripts) {
  return detail::MakeOpCall("einsum", {std::move(operands)},
                            ir::DictWith(nullptr, "subscripts", detail::StringAttr(subscripts)));
}

}  // namespace rlx::op
