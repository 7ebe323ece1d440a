// R.nn.max_pool3d and R.nn.avg_pool3d legalized with symbolic D, H, W, run
// with the TIR interpreter and compiled through LLVM (with and without the
// default CPU schedule) at sizes 1, odd and large, against a naive
// reference of the pooling definition (padding, strides, dilation,
// ceil_mode, count_include_pad).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "legalize_jit_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();

struct Pool3D {
  bool is_max = true;
  std::vector<int64_t> pool, strides, dilation, padding;  // padding: begins, ends
  bool ceil_mode = false, count_include_pad = false;
};

int64_t OutSize(int64_t in, const Pool3D& p, size_t s) {
  int64_t extra = p.padding[s] + p.padding[s + 3] - p.dilation[s] * (p.pool[s] - 1) - 1 +
                  (p.ceil_mode ? p.strides[s] - 1 : 0);
  return (in + extra) / p.strides[s] + 1;  // in + extra >= 0 in these cases
}

ExpectedTensor PoolReference(const tir::HostTensor& x, const Pool3D& p) {
  Index out = {x.shape[0], x.shape[1]};
  for (size_t s = 0; s < 3; ++s) out.push_back(OutSize(x.shape[2 + s], p, s));
  return Reference(out, [&](const Index& o) {
    double best = -std::numeric_limits<double>::infinity(), sum = 0;
    int64_t count = 0, padded_count = 1;
    for (size_t s = 0; s < 3; ++s) {
      // Window points inside the padded input (count_include_pad's divisor).
      int64_t start = o[2 + s] * p.strides[s] - p.padding[s];
      int64_t end = std::min(start + (p.pool[s] - 1) * p.dilation[s], x.shape[2 + s] + p.padding[s + 3] - 1);
      padded_count *= (end - start) / p.dilation[s] + 1;
    }
    for (int64_t a = 0; a < p.pool[0]; ++a) {
      for (int64_t b = 0; b < p.pool[1]; ++b) {
        for (int64_t c = 0; c < p.pool[2]; ++c) {
          Index at = {o[0], o[1], o[2] * p.strides[0] - p.padding[0] + a * p.dilation[0],
                      o[3] * p.strides[1] - p.padding[1] + b * p.dilation[1],
                      o[4] * p.strides[2] - p.padding[2] + c * p.dilation[2]};
          bool inside = true;
          for (size_t s = 0; s < 3; ++s) inside = inside && at[2 + s] >= 0 && at[2 + s] < x.shape[2 + s];
          if (!inside) continue;
          double v = x.At(at);
          best = std::max(best, v);
          sum += v;
          ++count;
        }
      }
    }
    if (p.is_max) return count ? best : static_cast<double>(std::numeric_limits<float>::lowest());
    return sum / static_cast<double>(p.count_include_pad ? padded_count : std::max<int64_t>(count, 1));
  });
}

std::string PoolCall(const Pool3D& p) {
  auto list = [](const std::vector<int64_t>& v) {
    std::string text = "[";
    for (size_t i = 0; i < v.size(); ++i) text += (i ? ", " : "") + std::to_string(v[i]);
    return text + "]";
  };
  return std::string(p.is_max ? "R.nn.max_pool3d" : "R.nn.avg_pool3d") + "(x, pool_size=" + list(p.pool) +
         ", strides=" + list(p.strides) + ", dilation=" + list(p.dilation) + ", padding=" + list(p.padding) +
         ", ceil_mode=" + (p.ceil_mode ? "True" : "False") +
         ", count_include_pad=" + (p.count_include_pad ? "True" : "False") + ")";
}

// Runs at (d, h, w) = `smallest` (1 where the window fits, given padding),
// odd and large sizes.
void CheckPool(const Pool3D& p, const Index& smallest, const std::string& what) {
  Compiled compiled = LegalizeAndCompile(R"(R.Tensor((2, 3, "d", "h", "w"), dtype="float32"))", PoolCall(p));
  for (const Index& size : {smallest, Index{5, 7, 3}, Index{4, 9, 64}}) {
    tir::HostTensor x = RandomTensor(kF32, {2, 3, size[0], size[1], size[2]}, static_cast<unsigned>(size[2]), -4, 4);
    ExpectAllRuns(compiled, x, {{"d", size[0]}, {"h", size[1]}, {"w", size[2]}}, {PoolReference(x, p)}, {kF32}, what,
                  1e-5, 1e-5);
  }
}

TEST(LegalizePool3DCodegenTest, MaxPoolPaddedStridedCeil) {
  CheckPool({true, {2, 3, 2}, {2, 1, 2}, {1, 1, 1}, {1, 1, 0, 0, 1, 1}, true, false}, {1, 1, 1}, "max_pool3d");
  CheckPool({true, {1, 2, 2}, {1, 1, 1}, {1, 1, 2}, {0, 0, 0, 0, 0, 0}, false, false}, {1, 2, 3},
            "max_pool3d dilated");
}

TEST(LegalizePool3DCodegenTest, AvgPoolWithAndWithoutPadCounting) {
  CheckPool({false, {3, 3, 3}, {1, 2, 2}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, false, false}, {1, 1, 1},
            "avg_pool3d exclude pad");
  CheckPool({false, {3, 3, 3}, {1, 2, 2}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, false, true}, {1, 1, 1},
            "avg_pool3d include pad");
}

}  // namespace
}  // namespace rlx::op_test
