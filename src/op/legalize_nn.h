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
  // The call arguments that become placeholders, in order (empty: all;
  // einsum's tuple argument contributes its fields).
  std::vector<size_t> tensor_args;
  std::function<std::vector<te::Tensor>(const std::vector<te::Tensor>&)> compute;
};

// nullopt: the call is left unchanged (see legalize_nn.cc).
std::optional<LegalizeSpec> NNLegalizeSpec(const graph::Call& call);
std::optional<LegalizeSpec> ConvPoolLegalizeSpec(const graph::Call& call);
std::optional<LegalizeSpec> MiscLegalizeSpec(const graph::Call& call);

}  // namespace rlx::op::detail
