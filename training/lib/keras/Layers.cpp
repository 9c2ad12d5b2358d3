//===- Layers.cpp - Keras's built-in layers -------------------------------===//

#include "tfc/keras/Layers.h"

#include "tfc/frontend/ControlFlow.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"

#include <map>
#include <optional>

namespace tfc::keras {

namespace {

using ActivationFn = Tensor (*)(const Tensor &);

/// The one table of activation names (Dense, Conv2D and Activation use it).
const std::map<std::string, ActivationFn> &activations() {
  static const std::map<std::string, ActivationFn> table = {
      {"", [](const Tensor &x) { return x; }},
      {"linear", [](const Tensor &x) { return x; }},
      {"relu", [](const Tensor &x) { return relu(x); }},
      {"sigmoid", [](const Tensor &x) { return sigmoid(x); }},
      {"tanh", [](const Tensor &x) { return tanh(x); }},
      {"softmax", [](const Tensor &x) { return softmax(x, -1); }},
      {"log_softmax", [](const Tensor &x) { return log_softmax(x, -1); }},
      {"gelu", [](const Tensor &x) { return gelu(x); }},
      {"elu", [](const Tensor &x) { return elu(x); }},
      {"selu",
       [](const Tensor &x) {
         // Keras's constants (Klambauer et al. 2017).
         constexpr double alpha = 1.6732632423543772848170429916717;
         constexpr double scale = 1.0507009873554804934193349852946;
         return where(x > 0, x, (exp(x) - 1) * alpha) * scale;
       }},
      {"softplus", [](const Tensor &x) { return softplus(x); }},
      {"leaky_relu", [](const Tensor &x) { return leaky_relu(x); }},
      {"silu", [](const Tensor &x) { return x * sigmoid(x); }},
      {"swish", [](const Tensor &x) { return x * sigmoid(x); }},
      {"exponential", [](const Tensor &x) { return exp(x); }},
  };
  return table;
}

ActivationFn lookupActivation(const std::string &name) {
  auto it = activations().find(name);
  if (it == activations().end()) {
    std::string known;
    for (auto &[k, fn] : activations())
      if (!k.empty())
        known += (known.empty() ? "" : ", ") + k;
    throw InvalidArgumentError("keras: unknown activation '" + name +
                               "' (known: " + known + ")");
  }
  return it->second;
}

std::string shapeStr(const Shape &s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") +
         (s[i] < 0 ? std::string("None") : std::to_string(s[i]));
  return r + (s.size() == 1 ? ",)" : ")");
}

/// InvalidArgumentError naming the layer and the input shape.
[[noreturn]] void badInput(const LayerBase &layer, const Shape &shape,
                           const std::string &what) {
  throw InvalidArgumentError("Layer " + layer.name() + " (" +
                             layer.class_name() + "): " + what +
                             "; got input shape " + shapeStr(shape));
}

void requirePositive(const char *layer, const char *what, int64_t v) {
  if (v <= 0)
    throw InvalidArgumentError(std::string(layer) + ": " + what +
                               " must be positive, got " + std::to_string(v));
}

class DenseLayer : public LayerBase {
public:
  DenseLayer(int64_t units, layers::DenseOptions o)
      : LayerBase(o.name), units(units), act(lookupActivation(o.activation)),
        opts(std::move(o)) {
    requirePositive("Dense", "units", units);
  }
  std::string class_name() const override { return "Dense"; }
  void build(const Shape &in) override {
    if (in.empty() || in.back() <= 0)
      badInput(*this, in, "needs an input of rank >= 1 with a known last dim");
    kernel =
        add_weight("kernel", {in.back(), units},
                   opts.kernel_initializer ? opts.kernel_initializer
                                           : initializers::glorot_uniform());
    if (opts.use_bias)
      bias = add_weight("bias", {units},
                        opts.bias_initializer ? opts.bias_initializer
                                              : initializers::zeros());
  }
  Tensor call(const Tensor &x, bool) override {
    const Shape &in = x.shape();
    if (in.empty() || in.back() != kernel->shape()[0])
      badInput(*this, in,
               "expected a last dim of " + std::to_string(kernel->shape()[0]));
    Tensor y;
    if (in.size() == 2) {
      y = matmul(x, kernel->value());
    } else {
      // Keras applies Dense to the last axis of any rank.
      Shape outShape(in.begin(), in.end() - 1);
      outShape.push_back(units);
      y = reshape(matmul(reshape(x, {-1, in.back()}), kernel->value()),
                  outShape);
    }
    if (bias)
      y = y + bias->value();
    return act(y);
  }

private:
  int64_t units;
  ActivationFn act;
  layers::DenseOptions opts;
  std::optional<Variable> kernel, bias;
};

class Conv2DLayer : public LayerBase {
public:
  Conv2DLayer(int64_t filters, std::array<int64_t, 2> kernelSize,
              layers::Conv2DOptions o)
      : LayerBase(o.name), filters(filters), kernelSize(kernelSize),
        act(lookupActivation(o.activation)), opts(std::move(o)) {
    requirePositive("Conv2D", "filters", filters);
    requirePositive("Conv2D", "kernel height", kernelSize[0]);
    requirePositive("Conv2D", "kernel width", kernelSize[1]);
    requirePositive("Conv2D", "stride",
                    std::min(opts.strides[0], opts.strides[1]));
    requirePositive("Conv2D", "dilation rate",
                    std::min(opts.dilation_rate[0], opts.dilation_rate[1]));
  }
  std::string class_name() const override { return "Conv2D"; }
  void build(const Shape &in) override {
    if (in.size() != 4 || in[3] <= 0)
      badInput(*this, in, "needs an NHWC input of rank 4 with known channels");
    kernel =
        add_weight("kernel", {kernelSize[0], kernelSize[1], in[3], filters},
                   opts.kernel_initializer ? opts.kernel_initializer
                                           : initializers::glorot_uniform());
    if (opts.use_bias)
      bias = add_weight("bias", {filters},
                        opts.bias_initializer ? opts.bias_initializer
                                              : initializers::zeros());
  }
  Tensor call(const Tensor &x, bool) override {
    Tensor y = conv2d(x, kernel->value(), opts.strides, opts.padding,
                      opts.dilation_rate);
    if (bias)
      y = y + bias->value();
    return act(y);
  }

private:
  int64_t filters;
  std::array<int64_t, 2> kernelSize;
  ActivationFn act;
  layers::Conv2DOptions opts;
  std::optional<Variable> kernel, bias;
};

class Pooling2DLayer : public LayerBase {
public:
  Pooling2DLayer(bool max, std::array<int64_t, 2> pool) : max(max), pool(pool) {
    requirePositive(max ? "MaxPooling2D" : "AveragePooling2D", "pool size",
                    std::min(pool[0], pool[1]));
  }
  std::string class_name() const override {
    return max ? "MaxPooling2D" : "AveragePooling2D";
  }
  Tensor call(const Tensor &x, bool) override {
    if (x.rank() != 4)
      badInput(*this, x.shape(), "needs an NHWC input of rank 4");
    return max ? max_pool2d(x, pool, pool) : avg_pool2d(x, pool, pool);
  }

private:
  bool max;
  std::array<int64_t, 2> pool;
};

class GlobalAveragePooling2DLayer : public LayerBase {
public:
  std::string class_name() const override { return "GlobalAveragePooling2D"; }
  Tensor call(const Tensor &x, bool) override {
    if (x.rank() != 4)
      badInput(*this, x.shape(), "needs an NHWC input of rank 4");
    return reduce_mean(x, {1, 2});
  }
};

class FlattenLayer : public LayerBase {
public:
  std::string class_name() const override { return "Flatten"; }
  Tensor call(const Tensor &x, bool) override {
    const Shape &in = x.shape();
    if (in.empty())
      badInput(*this, in, "needs an input with a batch dim");
    int64_t rest = 1;
    for (size_t i = 1; i < in.size(); ++i)
      rest *= in[i];
    // -1 keeps a dynamic batch dim; an empty example needs it spelled.
    return reshape(x, {rest == 0 ? in[0] : -1, rest});
  }
};

class DropoutLayer : public LayerBase {
public:
  DropoutLayer(double rate, uint64_t seed)
      : rate(rate), gen(seed_generator(seed)) {
    if (!(rate >= 0 && rate < 1))
      throw InvalidArgumentError("Dropout: rate must be in [0, 1), got " +
                                 std::to_string(rate));
  }
  std::string class_name() const override { return "Dropout"; }
  Tensor call(const Tensor &x, bool training) override {
    if (!training || rate == 0)
      return x;
    return dropout(x, rate, gen);
  }
  /// Replicas built alike hold the same stream; each takes its own part
  /// of a split (the same split on every replica), so their masks differ.
  void on_replica(int replica, int replicas) override {
    if (replicas > 1)
      gen = gen.split(replicas)[size_t(replica)];
  }

private:
  double rate;
  random::Generator gen;
};

class BatchNormalizationLayer : public LayerBase {
public:
  explicit BatchNormalizationLayer(layers::BatchNormalizationOptions o)
      : opts(o) {
    if (!(o.momentum >= 0 && o.momentum <= 1))
      throw InvalidArgumentError(
          "BatchNormalization: momentum must be in [0, 1], got " +
          std::to_string(o.momentum));
    if (!(o.epsilon > 0))
      throw InvalidArgumentError(
          "BatchNormalization: epsilon must be positive, got " +
          std::to_string(o.epsilon));
  }
  std::string class_name() const override { return "BatchNormalization"; }
  void build(const Shape &in) override {
    if (in.size() < 2 || in.back() <= 0)
      badInput(*this, in, "needs an input of rank >= 2 with known features");
    Shape s{in.back()};
    if (opts.scale)
      gamma = add_weight("gamma", s, initializers::ones());
    if (opts.center)
      beta = add_weight("beta", s, initializers::zeros());
    movingMean = add_weight("moving_mean", s, initializers::zeros(), false);
    movingVariance =
        add_weight("moving_variance", s, initializers::ones(), false);
  }
  Tensor call(const Tensor &x, bool training) override {
    if (x.rank() < 2 || x.shape().back() != movingMean->shape()[0])
      badInput(*this, x.shape(),
               "expected " + std::to_string(movingMean->shape()[0]) +
                   " features in the last dim");
    Tensor mean, variance;
    if (training) {
      std::vector<int64_t> axes;
      for (int64_t i = 0; i + 1 < x.rank(); ++i)
        axes.push_back(i);
      mean = reduce_mean(x, axes);
      variance = reduce_mean(square(x - mean), axes);
      const double m = opts.momentum;
      movingMean->assign(movingMean->value() * m + mean * (1 - m));
      movingVariance->assign(movingVariance->value() * m + variance * (1 - m));
    } else {
      mean = movingMean->value();
      variance = movingVariance->value();
    }
    Tensor y = (x - mean) * rsqrt(variance + opts.epsilon);
    if (gamma)
      y = y * gamma->value();
    if (beta)
      y = y + beta->value();
    return y;
  }

private:
  layers::BatchNormalizationOptions opts;
  std::optional<Variable> gamma, beta, movingMean, movingVariance;
};

class LayerNormalizationLayer : public LayerBase {
public:
  explicit LayerNormalizationLayer(double epsilon) : epsilon(epsilon) {
    if (!(epsilon > 0))
      throw InvalidArgumentError(
          "LayerNormalization: epsilon must be positive, got " +
          std::to_string(epsilon));
  }
  std::string class_name() const override { return "LayerNormalization"; }
  void build(const Shape &in) override {
    if (in.empty() || in.back() <= 0)
      badInput(*this, in, "needs an input with a known last dim");
    gamma = add_weight("gamma", {in.back()}, initializers::ones());
    beta = add_weight("beta", {in.back()}, initializers::zeros());
  }
  Tensor call(const Tensor &x, bool) override {
    if (x.rank() < 1 || x.shape().back() != gamma->shape()[0])
      badInput(*this, x.shape(),
               "expected a last dim of " + std::to_string(gamma->shape()[0]));
    Tensor mean = reduce_mean(x, {-1}, true);
    Tensor variance = reduce_mean(square(x - mean), {-1}, true);
    return (x - mean) * rsqrt(variance + epsilon) * gamma->value() +
           beta->value();
  }

private:
  double epsilon;
  std::optional<Variable> gamma, beta;
};

class EmbeddingLayer : public LayerBase {
public:
  EmbeddingLayer(int64_t inputDim, int64_t outputDim)
      : inputDim(inputDim), outputDim(outputDim) {
    requirePositive("Embedding", "input_dim", inputDim);
    requirePositive("Embedding", "output_dim", outputDim);
  }
  std::string class_name() const override { return "Embedding"; }
  void build(const Shape &) override {
    table = add_weight("embeddings", {inputDim, outputDim},
                       initializers::random_uniform());
  }
  Tensor call(const Tensor &x, bool) override {
    Tensor ids = x;
    if (x.dtype() != DType::Int32 && x.dtype() != DType::Int64)
      ids = cast(x, DType::Int32);
    return gather(table->value(), ids, 0);
  }

private:
  int64_t inputDim, outputDim;
  std::optional<Variable> table;
};

class ActivationLayer : public LayerBase {
public:
  explicit ActivationLayer(const std::string &name)
      : act(lookupActivation(name)) {}
  std::string class_name() const override { return "Activation"; }
  Tensor call(const Tensor &x, bool) override { return act(x); }

private:
  ActivationFn act;
};

/// What LSTM and GRU share: the input checks, the input projection of
/// every step at once, and the loop over time that collects the outputs.
class RecurrentLayer : public LayerBase {
public:
  RecurrentLayer(int64_t units, bool returnSequences, int gates)
      : units(units), gates(gates), returnSequences(returnSequences) {
    requirePositive("recurrent layer", "units", units);
  }
  void build(const Shape &in) override {
    if (in.size() != 3 || in[2] <= 0)
      badInput(*this, in,
               "needs a (batch, time, features) input with known features");
    kernel = add_weight("kernel", {in[2], gates * units},
                        initializers::glorot_uniform());
    recurrent = add_weight("recurrent_kernel", {units, gates * units},
                           initializers::orthogonal());
    buildBias();
  }
  Tensor call(const Tensor &x, bool) override {
    const Shape &in = x.shape();
    if (in.size() != 3 || in[2] != kernel->shape()[0])
      badInput(*this, in,
               "expected (batch, time, " + std::to_string(kernel->shape()[0]) +
                   ")");
    const int64_t batch = in[0], time = in[1];
    if (time == 0)
      badInput(*this, in, "needs at least one time step");
    // One matmul projects every step's input; the loop adds the recurrent
    // part.
    Tensor xw = reshape(matmul(reshape(x, {-1, in[2]}), kernel->value()),
                        {batch, time, gates * units}) +
                inputBias();
    Tensor u = recurrent->value();
    // Zero states broadcast like a (batch, 1) column of x: sized at run
    // time when the batch is dynamic (a reduce_retracing trace, a saved
    // model).
    Tensor column = reduce_sum(gather(x, constant(0), 1), {1}, true);
    Tensor zero = broadcast_like(zeros({1, units}, x.dtype()), column);
    std::vector<Tensor> init{constant(0), zero};
    if (gates == 4)
      init.push_back(zero); // LSTM's cell state
    if (returnSequences)
      init.push_back(broadcast_like(zeros({1, time, units}, x.dtype()),
                                    reshape(column, {-1, 1, 1})));
    std::vector<Tensor> out = while_loop(
        [time](const std::vector<Tensor> &v) { return v[0] < int32_t(time); },
        [&](const std::vector<Tensor> &v) {
          std::vector<Tensor> next = step(gather(xw, v[0], 1), u, v);
          next.insert(next.begin(), v[0] + 1);
          if (returnSequences) {
            // Row t of the sequence: a one-hot mask over time.
            Tensor at = reshape(one_hot(v[0], time), {1, time, 1});
            next.push_back(v.back() + at * expand_dims(next[1], 1));
          }
          return next;
        },
        std::move(init));
    return returnSequences ? out.back() : out[1];
  }

protected:
  /// The next (h) or (h, c) from this step's projected input `xt` and the
  /// loop variables (v[1] = h, v[2] = c).
  virtual std::vector<Tensor> step(const Tensor &xt, const Tensor &u,
                                   const std::vector<Tensor> &v) = 0;
  virtual void buildBias() = 0;
  virtual Tensor inputBias() = 0;
  /// Gate k of a (batch, gates * units) tensor.
  Tensor gate(const Tensor &z, int k) const {
    // tfc.slice has static sizes: a dynamic batch takes row block k of a
    // (batch, gates, units) view instead.
    if (z.shape()[0] < 0)
      return gather(reshape(z, {-1, gates, units}), constant(int64_t(k)), 1);
    return slice(z, {0, k * units}, {z.shape()[0], units});
  }

  int64_t units;
  int gates;
  bool returnSequences;
  std::optional<Variable> kernel, recurrent, bias;
};

class LSTMLayer : public RecurrentLayer {
public:
  LSTMLayer(int64_t units, bool returnSequences)
      : RecurrentLayer(units, returnSequences, 4) {}
  std::string class_name() const override { return "LSTM"; }

private:
  void buildBias() override {
    const int64_t u = units;
    bias = add_weight(
        "bias", {4 * u}, Initializer("lstm_bias", [u](const Shape &, DType dt) {
          return concat({zeros({u}, dt), ones({u}, dt), zeros({2 * u}, dt)}, 0);
        }));
  }
  Tensor inputBias() override { return bias->value(); }
  std::vector<Tensor> step(const Tensor &xt, const Tensor &u,
                           const std::vector<Tensor> &v) override {
    Tensor z = xt + matmul(v[1], u);
    Tensor i = sigmoid(gate(z, 0)), f = sigmoid(gate(z, 1));
    Tensor c = f * v[2] + i * tanh(gate(z, 2));
    Tensor h = sigmoid(gate(z, 3)) * tanh(c);
    return {h, c};
  }
};

class GRULayer : public RecurrentLayer {
public:
  GRULayer(int64_t units, bool returnSequences)
      : RecurrentLayer(units, returnSequences, 3) {}
  std::string class_name() const override { return "GRU"; }

private:
  void buildBias() override {
    bias = add_weight("bias", {2, 3 * units}, initializers::zeros());
  }
  Tensor row(int r) {
    return reshape(slice(bias->value(), {r, 0}, {1, 3 * units}), {3 * units});
  }
  Tensor inputBias() override { return row(0); }
  std::vector<Tensor> step(const Tensor &xt, const Tensor &u,
                           const std::vector<Tensor> &v) override {
    Tensor hu = matmul(v[1], u) + row(1);
    Tensor z = sigmoid(gate(xt, 0) + gate(hu, 0));
    Tensor r = sigmoid(gate(xt, 1) + gate(hu, 1));
    Tensor candidate = tanh(gate(xt, 2) + r * gate(hu, 2));
    return {z * v[1] + (1 - z) * candidate};
  }
};

} // namespace

Tensor activation(const std::string &name, const Tensor &x) {
  return lookupActivation(name)(x);
}

namespace layers {

Layer Dense(int64_t units, DenseOptions o) {
  return make_layer<DenseLayer>(units, std::move(o));
}
Layer Conv2D(int64_t filters, std::array<int64_t, 2> kernel_size,
             Conv2DOptions o) {
  return make_layer<Conv2DLayer>(filters, kernel_size, std::move(o));
}
Layer MaxPooling2D(std::array<int64_t, 2> pool_size) {
  return make_layer<Pooling2DLayer>(true, pool_size);
}
Layer AveragePooling2D(std::array<int64_t, 2> pool_size) {
  return make_layer<Pooling2DLayer>(false, pool_size);
}
Layer GlobalAveragePooling2D() {
  return make_layer<GlobalAveragePooling2DLayer>();
}
Layer Flatten() { return make_layer<FlattenLayer>(); }
Layer Dropout(double rate, uint64_t seed) {
  return make_layer<DropoutLayer>(rate, seed);
}
Layer BatchNormalization(BatchNormalizationOptions o) {
  return make_layer<BatchNormalizationLayer>(o);
}
Layer LayerNormalization(double epsilon) {
  return make_layer<LayerNormalizationLayer>(epsilon);
}
Layer Embedding(int64_t input_dim, int64_t output_dim) {
  return make_layer<EmbeddingLayer>(input_dim, output_dim);
}
Layer Activation(const std::string &name) {
  return make_layer<ActivationLayer>(name);
}
Layer LSTM(int64_t units, bool return_sequences) {
  return make_layer<LSTMLayer>(units, return_sequences);
}
Layer GRU(int64_t units, bool return_sequences) {
  return make_layer<GRULayer>(units, return_sequences);
}

} // namespace layers
} // namespace tfc::keras
