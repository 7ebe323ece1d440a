// Random float32 constants as TVMScript text, for end-to-end tests that
// write a network with weights inline (dispatch-library, convert-layout).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace rlx::test_util {

// R.const of `shape` with values uniform in [lo, hi) drawn from `rng`.
inline std::string RandomConst(const std::vector<int64_t>& shape, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::function<std::string(size_t)> nest = [&](size_t axis) -> std::string {
    std::string text = "[";
    for (int64_t i = 0; i < shape[axis]; ++i) {
      if (i) text += ", ";
      text += axis + 1 == shape.size() ? std::to_string(dist(rng)) : nest(axis + 1);
    }
    return text + "]";
  };
  return "R.const(" + nest(0) + ", \"float32\")";
}

}  // namespace rlx::test_util
