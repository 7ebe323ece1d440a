// Legalization specs of the nn, statistical, image and einsum operators
// (private to src/op): which call arguments become TE placeholders and the
// TE computation of the outputs, with attributes already normalized.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/tir/te.h"

namespace rlx::op::detail {

struct LegalizeSpec {
  std::string name;  // PrimFunc name hint ("softmax", "conv2d")
  // The outputs from the tensor arguments (in order; einsum's operand tuple
  // contributes its fields) and the Shape arguments (resize2d's size), both
  // as CallTE hands them over (symbolic variables renamed for the PrimFunc).
  std::function<std::vector<te::Tensor>(const std::vector<te::Tensor>& tensors,
                                        const std::vector<std::vector<ir::PrimExpr>>& shapes)>
      compute;
};

// The spec of a call of one of these operators; nullopt: the call is left
// unchanged (see legalize_nn.cc).
std::optional<LegalizeSpec> NNLegalizeSpec(const graph::Call& call);

}  // namespace rlx::op::detail
