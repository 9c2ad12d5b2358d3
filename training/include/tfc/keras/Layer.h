//===- Layer.h - Keras layers: handles, weights, sublayers ------*- C++ -*-===//
//
// A Layer is a cheap handle (copies share one object) to a LayerBase: the
// object builds its weights from the first input's shape, tracks sublayers
// and lists its variables in a stable order (own weights in creation order,
// then tracked layers' in track order), as Keras does.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_LAYER_H
#define TFC_KERAS_LAYER_H

#include "tfc/frontend/Variable.h"
#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tfc::random {
class Generator;
}

namespace tfc::keras {

using Shape = std::vector<int64_t>;

/// Makes a weight's initial value from its shape: Keras's initializers.
class Initializer {
public:
  using Fn = std::function<Tensor(const Shape &, DType)>;
  Initializer() = default;
  Initializer(std::string name, Fn fn);
  Tensor operator()(const Shape &shape, DType dtype = DType::Float32) const;
  const std::string &name() const { return name_; }
  explicit operator bool() const { return bool(fn_); }

private:
  std::string name_;
  Fn fn_;
};

/// Keras's initializers. A seed of 0 means "unseeded": the values come from
/// a process-wide generator (tfc::keras::set_random_seed fixes it), so two
/// layers built with default initializers differ, as in Keras; any other
/// seed gives the same values every time.
namespace initializers {
Initializer zeros();
Initializer ones();
Initializer constant(double value);
Initializer glorot_uniform(uint64_t seed = 0);
Initializer glorot_normal(uint64_t seed = 0);
Initializer he_uniform(uint64_t seed = 0);
Initializer he_normal(uint64_t seed = 0);
Initializer random_uniform(double minval = -0.05, double maxval = 0.05,
                           uint64_t seed = 0);
Initializer random_normal(double mean = 0, double stddev = 0.05,
                          uint64_t seed = 0);
/// An orthogonal matrix (of the last dim by the product of the others),
/// from the QR decomposition of a normal draw (recurrent kernels).
Initializer orthogonal(double gain = 1, uint64_t seed = 0);
} // namespace initializers

/// keras.utils.set_random_seed: reseeds the process-wide generator behind
/// unseeded initializers and layers (Dropout with seed 0).
void set_random_seed(uint64_t seed);

/// A generator for `seed`; 0: a new stream split off the process-wide
/// generator (what unseeded initializers and Dropout layers use).
random::Generator seed_generator(uint64_t seed);

class LayerBase;

/// A handle to a layer. Default-constructed: empty (calling it throws).
class Layer {
public:
  Layer() = default;
  explicit Layer(std::shared_ptr<LayerBase> impl);

  /// Builds the layer on the first call (from x's shape), then calls it.
  Tensor operator()(const Tensor &x, bool training = false) const;

  /// Own trainable weights in creation order, then tracked layers'.
  std::vector<Variable> trainable_variables() const;
  /// E.g. BatchNormalization's moving mean and variance.
  std::vector<Variable> non_trainable_variables() const;
  /// Every weight: own in creation order, then tracked layers'.
  std::vector<Variable> variables() const;
  /// Every weight with its path inside this layer, in variables() order:
  /// "kernel", "dense/kernel", "dense_1/bias", ... A sublayer's key is its
  /// class's snake-case name made unique among its siblings in track order,
  /// so two models built the same way have the same paths (checkpoints).
  std::vector<std::pair<std::string, Variable>> named_variables() const;
  /// Elements of every weight, trainable or not.
  int64_t count_params() const;
  /// Unique in the process, Keras-style: "dense", "dense_1", ...
  const std::string &name() const;
  /// "Dense", "Conv2D", ... (LayerBase::class_name).
  std::string class_name() const;
  bool built() const;
  /// The tracked sublayers, in track order.
  std::vector<Layer> layers() const;

  LayerBase *get() const { return impl_.get(); }
  const std::shared_ptr<LayerBase> &impl() const { return impl_; }
  explicit operator bool() const { return bool(impl_); }

protected:
  std::shared_ptr<LayerBase> impl_;

private:
  /// f(path, variable, trainable) for every weight (defined in Layer.cpp).
  template <class F> void forEachWeight(const char *what, F &&f) const;
};

/// A user-defined layer or model: derive, override build and call, create
/// weights with add_weight and track sublayers with track (from the
/// constructor or build).
class LayerBase : public std::enable_shared_from_this<LayerBase> {
public:
  /// `name` empty: snake-case of class_name(), made unique on first use.
  explicit LayerBase(std::string name = "");
  virtual ~LayerBase();
  LayerBase(const LayerBase &) = delete;
  LayerBase &operator=(const LayerBase &) = delete;

  /// Called once, before the first call, with the input's shape (batch dim
  /// included). The default creates nothing.
  virtual void build(const Shape &input_shape);
  virtual Tensor call(const Tensor &x, bool training) = 0;
  /// The Keras class name ("Dense"); the default is the C++ type's name.
  virtual std::string class_name() const;
  /// The output shape for an input shape, batch dim first (summary()). The
  /// default runs the layer on zeros of that shape (batch 1 when unknown).
  virtual Shape compute_output_shape(const Shape &input_shape);
  /// Several inputs and outputs (functional models). The default takes one
  /// input and returns call()'s output.
  virtual std::vector<Tensor> call_multi(const std::vector<Tensor> &xs,
                                         bool training);
  virtual size_t num_inputs() const { return 1; }
  virtual size_t num_outputs() const { return 1; }
  /// Data-parallel training (MultiWorkerMirroredStrategy) runs this layer
  /// as replica `replica` of `replicas`, called eagerly before the train
  /// step is traced. Layers that draw random numbers in training take a
  /// stream of their own here (Dropout); the default does nothing.
  virtual void on_replica(int replica, int replicas) {}

  const std::string &name() const;
  bool built() const { return built_; }
  /// The shape of the latest output (empty before the first call).
  const Shape &last_output_shape() const { return last_output_shape_; }

protected:
  Variable add_weight(const std::string &name, Shape shape,
                      const Initializer &init, bool trainable = true,
                      DType dtype = DType::Float32);
  /// Tracks `sublayer` (its weights become this layer's); returns it.
  Layer track(Layer sublayer);
  /// For layers whose weights exist from construction (functional
  /// networks): no build() on the first call.
  void set_built() { built_ = true; }

private:
  friend class Layer;
  void ensure_built(const Shape &input_shape);
  /// One weight reached from a layer: its path and whether it trains.
  struct Named {
    std::string path;
    Variable var;
    bool trainable;
  };
  /// Appends this layer's weights under `prefix`, then its sublayers'; a
  /// layer already in `seen` (shared) is skipped.
  void collect(const std::string &prefix, std::set<const LayerBase *> &seen,
               std::vector<Named> &out) const;

  mutable std::string name_;
  bool built_ = false;
  Shape last_output_shape_;
  struct Weight {
    std::string name;
    Variable var;
    bool trainable;
  };
  std::vector<Weight> weights_;
  std::vector<Layer> sublayers_;
};

/// make_layer<MyLayer>(args...): constructs MyLayer (a LayerBase) and
/// returns its handle.
template <class L, class... A> Layer make_layer(A &&...args) {
  return Layer(std::make_shared<L>(std::forward<A>(args)...));
}

} // namespace tfc::keras

#endif // TFC_KERAS_LAYER_H
