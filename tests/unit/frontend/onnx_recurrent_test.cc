// The ONNX recurrent layers (ops_recurrent.cc): a bidirectional LSTM with a
// symbolic sequence length and batch compiled once and run at several
// sequence lengths, a GRU with linear_before_reset (reverse, layout 1,
// sequence_lens), both against plain C++ references, and the import errors
// for unsupported attributes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "onnx_compiled_model.h"
#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using Builder = testing::OnnxModelBuilder;
using Floats = std::vector<float>;

using testing::CompiledModel;

Floats RandomFloats(size_t n, std::mt19937& rng, float scale = 0.5f) {
  std::uniform_real_distribution<float> dist(-scale, scale);
  Floats v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

void ExpectNear(const Floats& actual, const Floats& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4f * (1.0f + std::fabs(expected[i]))) << what << " at " << i;
  }
}

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// Row-major views of the ONNX tensors (layout 0).
struct Dims {
  int64_t seq, batch, input, hidden, dirs;
};

// sum_k a[k] * w[row, k] over a row of width `width`.
float Dot(const float* a, const float* w_row, int64_t width) {
  float acc = 0;
  for (int64_t k = 0; k < width; ++k) acc += a[k] * w_row[k];
  return acc;
}

struct Reference {
  Floats y, y_h, y_c;
};

// ONNX's LSTM (gates i, o, f, c; peepholes P = [Pi, Po, Pf]); direction 1
// of a bidirectional layer runs backwards through each sequence.
Reference LstmReference(const Dims& n, const Floats& x, const Floats& w, const Floats& r, const Floats& b,
                        const std::vector<int32_t>& lens, const Floats& h0, const Floats& c0, const Floats& p) {
  const int64_t H = n.hidden;
  Reference out{Floats(static_cast<size_t>(n.seq * n.dirs * n.batch * H), 0.0f), h0, c0};
  for (int64_t d = 0; d < n.dirs; ++d) {
    for (int64_t bi = 0; bi < n.batch; ++bi) {
      float* h = &out.y_h[static_cast<size_t>((d * n.batch + bi) * H)];
      float* c = &out.y_c[static_cast<size_t>((d * n.batch + bi) * H)];
      const int64_t len = lens[static_cast<size_t>(bi)];
      for (int64_t step = 0; step < len; ++step) {
        int64_t t = d == 1 ? len - 1 - step : step;
        const float* xt = &x[static_cast<size_t>((t * n.batch + bi) * n.input)];
        Floats gate(static_cast<size_t>(4 * H));
        for (int64_t row = 0; row < 4 * H; ++row) {
          gate[static_cast<size_t>(row)] = Dot(xt, &w[static_cast<size_t>((d * 4 * H + row) * n.input)], n.input) +
                                           Dot(h, &r[static_cast<size_t>((d * 4 * H + row) * H)], H) +
                                           b[static_cast<size_t>(d * 8 * H + row)] +
                                           b[static_cast<size_t>(d * 8 * H + 4 * H + row)];
        }
        Floats h_new(static_cast<size_t>(H));
        for (int64_t j = 0; j < H; ++j) {
          auto pp = [&](int64_t k) { return p[static_cast<size_t>(d * 3 * H + k * H + j)]; };
          float i_gate = Sigmoid(gate[static_cast<size_t>(j)] + pp(0) * c[j]);
          float f_gate = Sigmoid(gate[static_cast<size_t>(2 * H + j)] + pp(2) * c[j]);
          float candidate = std::tanh(gate[static_cast<size_t>(3 * H + j)]);
          c[j] = f_gate * c[j] + i_gate * candidate;
          float o_gate = Sigmoid(gate[static_cast<size_t>(H + j)] + pp(1) * c[j]);
          h_new[static_cast<size_t>(j)] = o_gate * std::tanh(c[j]);
        }
        for (int64_t j = 0; j < H; ++j) {
          h[j] = h_new[static_cast<size_t>(j)];
          out.y[static_cast<size_t>(((t * n.dirs + d) * n.batch + bi) * H + j)] = h[j];
        }
      }
    }
  }
  return out;
}

// Builds the bidirectional LSTM model: X (seq, batch, 3), hidden 4, with
// every optional input (B, sequence_lens, initial_h, initial_c, P).
struct LstmWeights {
  Floats w, r, b, p;
};

Builder LstmModel(const Dims& n, const LstmWeights& weights) {
  Builder m(14);
  m.Input("X", {std::string("seq"), std::string("batch"), n.input});
  m.Initializer("W", {n.dirs, 4 * n.hidden, n.input}, weights.w);
  m.Initializer("R", {n.dirs, 4 * n.hidden, n.hidden}, weights.r);
  m.Initializer("B", {n.dirs, 8 * n.hidden}, weights.b);
  m.Input("sequence_lens", {std::string("batch")}, onnx::TensorProto::INT32);
  m.Input("initial_h", {n.dirs, std::string("batch"), n.hidden});
  m.Input("initial_c", {n.dirs, std::string("batch"), n.hidden});
  m.Initializer("P", {n.dirs, 3 * n.hidden}, weights.p);
  auto* node = m.Node("LSTM", {"X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"}, {"Y", "Y_h", "Y_c"},
                      "lstm");
  Builder::AttrString(node, "direction", "bidirectional");
  Builder::AttrInt(node, "hidden_size", n.hidden);
  m.Output("Y");
  m.Output("Y_h");
  m.Output("Y_c");
  return m;
}

TEST(OnnxRecurrentTest, BidirectionalLstmWithSymbolicSequenceLength) {
  std::mt19937 rng(7);
  Dims n{0, 0, 3, 4, 2};
  LstmWeights weights{RandomFloats(static_cast<size_t>(n.dirs * 4 * n.hidden * n.input), rng),
                      RandomFloats(static_cast<size_t>(n.dirs * 4 * n.hidden * n.hidden), rng),
                      RandomFloats(static_cast<size_t>(n.dirs * 8 * n.hidden), rng),
                      RandomFloats(static_cast<size_t>(n.dirs * 3 * n.hidden), rng)};
  CompiledModel model(LstmModel(n, weights), "lstm_bidirectional");
  struct Case {
    int64_t seq, batch;
    std::vector<int32_t> lens;
  };
  for (const Case& c : {Case{1, 2, {1, 1}}, Case{7, 3, {7, 4, 0}}, Case{100, 2, {100, 63}}}) {
    n.seq = c.seq;
    n.batch = c.batch;
    Floats x = RandomFloats(static_cast<size_t>(n.seq * n.batch * n.input), rng, 1.0f);
    Floats h0 = RandomFloats(static_cast<size_t>(n.dirs * n.batch * n.hidden), rng);
    Floats c0 = RandomFloats(static_cast<size_t>(n.dirs * n.batch * n.hidden), rng);
    Reference expected = LstmReference(n, x, weights.w, weights.r, weights.b, c.lens, h0, c0, weights.p);
    std::vector<rt::NDArray> out = model.RunFields({rt::NDArray::FromVector<float>({n.seq, n.batch, n.input}, x),
                                              rt::NDArray::FromVector<int32_t>({n.batch}, c.lens),
                                              rt::NDArray::FromVector<float>({n.dirs, n.batch, n.hidden}, h0),
                                              rt::NDArray::FromVector<float>({n.dirs, n.batch, n.hidden}, c0)});
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].shape(), (rt::ShapeTuple{n.seq, n.dirs, n.batch, n.hidden}));
    EXPECT_EQ(out[1].shape(), (rt::ShapeTuple{n.dirs, n.batch, n.hidden}));
    std::string at = "seq " + std::to_string(n.seq) + ": ";
    ExpectNear(out[0].ToVector<float>(), expected.y, at + "Y");
    ExpectNear(out[1].ToVector<float>(), expected.y_h, at + "Y_h");
    ExpectNear(out[2].ToVector<float>(), expected.y_c, at + "Y_c");
  }
}

// ONNX's GRU with linear_before_reset = 1, direction reverse, layout 1
// (X (batch, seq, input), Y (batch, seq, 1, hidden), Y_h (batch, 1, hidden)).
Reference GruReference(const Dims& n, const Floats& x, const Floats& w, const Floats& r, const Floats& b,
                       const std::vector<int32_t>& lens) {
  const int64_t H = n.hidden;
  Reference out{Floats(static_cast<size_t>(n.batch * n.seq * H), 0.0f), Floats(static_cast<size_t>(n.batch * H), 0.0f),
                {}};
  for (int64_t bi = 0; bi < n.batch; ++bi) {
    float* h = &out.y_h[static_cast<size_t>(bi * H)];
    const int64_t len = lens[static_cast<size_t>(bi)];
    for (int64_t step = 0; step < len; ++step) {
      int64_t t = len - 1 - step;
      const float* xt = &x[static_cast<size_t>((bi * n.seq + t) * n.input)];
      Floats xg(static_cast<size_t>(3 * H)), hg(static_cast<size_t>(3 * H));
      for (int64_t row = 0; row < 3 * H; ++row) {
        xg[static_cast<size_t>(row)] = Dot(xt, &w[static_cast<size_t>(row * n.input)], n.input) + b[static_cast<size_t>(row)];
        hg[static_cast<size_t>(row)] = Dot(h, &r[static_cast<size_t>(row * H)], H) + b[static_cast<size_t>(3 * H + row)];
      }
      Floats h_new(static_cast<size_t>(H));
      for (int64_t j = 0; j < H; ++j) {
        auto at = [&](const Floats& v, int64_t g) { return v[static_cast<size_t>(g * H + j)]; };
        float z = Sigmoid(at(xg, 0) + at(hg, 0));
        float rr = Sigmoid(at(xg, 1) + at(hg, 1));
        float candidate = std::tanh(at(xg, 2) + rr * at(hg, 2));
        h_new[static_cast<size_t>(j)] = (1 - z) * candidate + z * h[j];
      }
      for (int64_t j = 0; j < H; ++j) {
        h[j] = h_new[static_cast<size_t>(j)];
        out.y[static_cast<size_t>((bi * n.seq + t) * H + j)] = h[j];
      }
    }
  }
  return out;
}

TEST(OnnxRecurrentTest, GruLinearBeforeResetReverseBatchFirst) {
  std::mt19937 rng(11);
  Dims n{5, 3, 2, 3, 1};
  Floats w = RandomFloats(static_cast<size_t>(3 * n.hidden * n.input), rng);
  Floats r = RandomFloats(static_cast<size_t>(3 * n.hidden * n.hidden), rng);
  Floats b = RandomFloats(static_cast<size_t>(6 * n.hidden), rng);
  Builder m(14);
  m.Input("X", {std::string("batch"), std::string("seq"), n.input});
  m.Initializer("W", {1, 3 * n.hidden, n.input}, w);
  m.Initializer("R", {1, 3 * n.hidden, n.hidden}, r);
  m.Initializer("B", {1, 6 * n.hidden}, b);
  m.Input("sequence_lens", {std::string("batch")}, onnx::TensorProto::INT32);
  auto* node = m.Node("GRU", {"X", "W", "R", "B", "sequence_lens"}, {"Y", "Y_h"}, "gru");
  Builder::AttrInt(node, "linear_before_reset", 1);
  Builder::AttrInt(node, "layout", 1);
  Builder::AttrString(node, "direction", "reverse");
  m.Output("Y");
  m.Output("Y_h");
  CompiledModel model(m, "gru_lbr");
  std::vector<int32_t> lens{5, 2, 4};
  Floats x = RandomFloats(static_cast<size_t>(n.batch * n.seq * n.input), rng, 1.0f);
  Reference expected = GruReference(n, x, w, r, b, lens);
  std::vector<rt::NDArray> out = model.RunFields(
      {rt::NDArray::FromVector<float>({n.batch, n.seq, n.input}, x), rt::NDArray::FromVector<int32_t>({n.batch}, lens)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (rt::ShapeTuple{n.batch, n.seq, 1, n.hidden}));
  EXPECT_EQ(out[1].shape(), (rt::ShapeTuple{n.batch, 1, n.hidden}));
  ExpectNear(out[0].ToVector<float>(), expected.y, "Y");
  ExpectNear(out[1].ToVector<float>(), expected.y_h, "Y_h");
}

// ONNX's activation functions as the spec defines them.
float ApplyActivation(const std::string& name, float alpha, float beta, float x) {
  if (name == "Relu") return std::max(x, 0.0f);
  if (name == "Sigmoid") return Sigmoid(x);
  if (name == "Affine") return alpha * x + beta;
  if (name == "LeakyRelu") return x >= 0 ? x : alpha * x;
  if (name == "ThresholdedRelu") return x >= alpha ? x : 0.0f;
  if (name == "ScaledTanh") return alpha * std::tanh(beta * x);
  if (name == "HardSigmoid") return std::min(1.0f, std::max(0.0f, alpha * x + beta));
  if (name == "Elu") return x >= 0 ? x : alpha * (std::exp(x) - 1);
  if (name == "Softsign") return x / (1 + std::fabs(x));
  if (name == "Softplus") return std::log(1 + std::exp(x));
  return std::tanh(x);
}

// A bidirectional RNN whose two directions use the activations `names`
// (alpha / beta consumed in order by the functions that take them), with
// clip; no bias, an initial state, a symbolic sequence length.
struct ActivationCase {
  std::vector<std::string> names;
  Floats alphas, betas;
  Floats alpha_of, beta_of;  // what each direction's function receives
};

TEST(OnnxRecurrentTest, RnnActivationsAndClip) {
  std::vector<ActivationCase> cases = {
      {{"HardSigmoid", "LeakyRelu"}, {0.3f, 0.2f}, {0.4f}, {0.3f, 0.2f}, {0.4f, 0.0f}},
      {{"Softsign", "Elu"}, {0.5f}, {}, {0.0f, 0.5f}, {0.0f, 0.0f}},
      {{"ScaledTanh", "Softplus"}, {1.5f}, {0.7f}, {1.5f, 0.0f}, {0.7f, 0.0f}},
      {{"Affine", "ThresholdedRelu"}, {0.9f, 0.1f}, {0.05f}, {0.9f, 0.1f}, {0.05f, 0.0f}},
      {{"Relu", "Sigmoid"}, {}, {}, {0.0f, 0.0f}, {0.0f, 0.0f}},
  };
  std::mt19937 rng(5);
  const int64_t seq = 6, batch = 2, input = 3, hidden = 3;
  const float clip = 0.8f;
  for (const ActivationCase& c : cases) {
    Floats w = RandomFloats(static_cast<size_t>(2 * hidden * input), rng, 1.0f);
    Floats r = RandomFloats(static_cast<size_t>(2 * hidden * hidden), rng, 1.0f);
    Builder m(14);
    m.Input("X", {std::string("seq"), batch, input});
    m.Initializer("W", {2, hidden, input}, w);
    m.Initializer("R", {2, hidden, hidden}, r);
    m.Input("initial_h", {2, batch, hidden});
    auto* node = m.Node("RNN", {"X", "W", "R", "", "", "initial_h"}, {"Y", "Y_h"}, "rnn");
    Builder::AttrString(node, "direction", "bidirectional");
    Builder::AttrFloat(node, "clip", clip);
    auto* names = node->add_attribute();
    names->set_name("activations");
    names->set_type(onnx::AttributeProto::STRINGS);
    for (const std::string& name : c.names) names->add_strings(name);
    for (const auto& [attr, values] : {std::pair{"activation_alpha", c.alphas}, std::pair{"activation_beta", c.betas}}) {
      if (values.empty()) continue;
      auto* a = node->add_attribute();
      a->set_name(attr);
      a->set_type(onnx::AttributeProto::FLOATS);
      for (float v : values) a->add_floats(v);
    }
    m.Output("Y");
    m.Output("Y_h");
    CompiledModel model(m, "rnn_" + c.names[0]);
    Floats x = RandomFloats(static_cast<size_t>(seq * batch * input), rng, 2.0f);
    Floats h0 = RandomFloats(static_cast<size_t>(2 * batch * hidden), rng);
    Floats y(static_cast<size_t>(seq * 2 * batch * hidden));
    Floats y_h = h0;
    for (int64_t d = 0; d < 2; ++d) {
      for (int64_t b = 0; b < batch; ++b) {
        float* h = &y_h[static_cast<size_t>((d * batch + b) * hidden)];
        for (int64_t step = 0; step < seq; ++step) {
          int64_t t = d == 1 ? seq - 1 - step : step;
          Floats h_new(static_cast<size_t>(hidden));
          for (int64_t j = 0; j < hidden; ++j) {
            float pre = Dot(&x[static_cast<size_t>((t * batch + b) * input)], &w[static_cast<size_t>((d * hidden + j) * input)],
                            input) +
                        Dot(h, &r[static_cast<size_t>((d * hidden + j) * hidden)], hidden);
            pre = std::min(clip, std::max(-clip, pre));
            auto di = static_cast<size_t>(d);
            h_new[static_cast<size_t>(j)] = ApplyActivation(c.names[di], c.alpha_of[di], c.beta_of[di], pre);
          }
          for (int64_t j = 0; j < hidden; ++j) {
            h[j] = h_new[static_cast<size_t>(j)];
            y[static_cast<size_t>(((t * 2 + d) * batch + b) * hidden + j)] = h[j];
          }
        }
      }
    }
    std::vector<rt::NDArray> out = model.RunFields({rt::NDArray::FromVector<float>({seq, batch, input}, x),
                                              rt::NDArray::FromVector<float>({2, batch, hidden}, h0)});
    ASSERT_EQ(out.size(), 2u);
    ExpectNear(out[0].ToVector<float>(), y, c.names[0] + " Y");
    ExpectNear(out[1].ToVector<float>(), y_h, c.names[0] + " Y_h");
  }
}

// An RNN layer with one unsupported attribute value, imported.
std::string ImportError(const std::string& op, const std::string& attr, const std::string& stem) {
  Builder m(14);
  m.Input("X", {std::string("seq"), int64_t{1}, int64_t{2}});
  int64_t gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  m.Initializer("W", {1, gates * 2, 2}, Floats(static_cast<size_t>(gates * 4), 0.1f));
  m.Initializer("R", {1, gates * 2, 2}, Floats(static_cast<size_t>(gates * 4), 0.1f));
  auto* node = m.Node(op, {"X", "W", "R"}, {"Y"}, "layer");
  if (attr == "input_forget") Builder::AttrInt(node, "input_forget", 1);
  if (attr == "activations") {
    auto* a = node->add_attribute();
    a->set_name("activations");
    a->set_type(onnx::AttributeProto::STRINGS);
    a->add_strings("Gelu");
  }
  m.Output("Y");
  try {
    ImportOnnx(m.Write(stem));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(OnnxRecurrentTest, UnsupportedAttributesAreImportErrors) {
  std::string forget = ImportError("LSTM", "input_forget", "lstm_input_forget");
  EXPECT_NE(forget.find("'layer' (LSTM)"), std::string::npos) << forget;
  EXPECT_NE(forget.find("input_forget"), std::string::npos) << forget;
  std::string activation = ImportError("RNN", "activations", "rnn_gelu");
  EXPECT_NE(activation.find("'layer' (RNN)"), std::string::npos) << activation;
  EXPECT_NE(activation.find("activations"), std::string::npos) << activation;
  EXPECT_NE(activation.find("Gelu"), std::string::npos) << activation;
}

}  // namespace
}  // namespace rlx::frontend
