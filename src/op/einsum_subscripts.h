// Parsed einsum subscripts (private to src/op): "ij,jk->ik", "...ij->...ji",
// implicit output "ij,jk" (numpy: the letters that appear once, sorted,
// after the broadcast ellipsis dims).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rlx::op::detail {

struct EinsumTerm {
  std::string letters_before;  // letters before "..." (all letters when there is none)
  std::string letters_after;   // letters after "..."
  bool has_ellipsis = false;
  size_t num_letters() const { return letters_before.size() + letters_after.size(); }
};

struct EinsumSpec {
  std::vector<EinsumTerm> inputs;
  EinsumTerm output;
};

// The parsed subscripts, or an error message (returned in `error`).
std::optional<EinsumSpec> ParseEinsumSubscripts(const std::string& subscripts, std::string* error);

}  // namespace rlx::op::detail
