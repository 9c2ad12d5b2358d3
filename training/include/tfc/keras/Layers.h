//===- Layers.h - Keras's built-in layers -----------------------*- C++ -*-===//
//
// Factories returning Layer handles, with Keras's defaults (Glorot-uniform
// kernels, zero biases, BatchNormalization momentum 0.99 and epsilon 1e-3).
// Images are NHWC, convolution kernels HWIO, as in TensorFlow.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_LAYERS_H
#define TFC_KERAS_LAYERS_H

#include "tfc/keras/Layer.h"
#include "tfc/runtime/ConvGeometry.h"

#include <array>
#include <cstdint>
#include <string>

namespace tfc::keras {

/// The activation named `name` applied to x: "" or "linear" (identity),
/// "relu", "sigmoid", "tanh", "softmax", "log_softmax", "gelu", "elu",
/// "selu", "softplus", "leaky_relu", "silu" / "swish", "exponential".
/// InvalidArgumentError for any other name.
Tensor activation(const std::string &name, const Tensor &x);

namespace layers {

struct DenseOptions {
  std::string activation;
  bool use_bias = true;
  std::string name;
  Initializer kernel_initializer; ///< Empty: glorot_uniform().
  Initializer bias_initializer;   ///< Empty: zeros().
};
/// y = activation(x @ kernel + bias) on the last axis of x.
Layer Dense(int64_t units, DenseOptions = {});

struct Conv2DOptions {
  std::array<int64_t, 2> strides{1, 1};
  Padding padding = Padding::Valid;
  std::string activation;
  bool use_bias = true;
  std::string name;
  std::array<int64_t, 2> dilation_rate{1, 1};
  Initializer kernel_initializer; ///< Empty: glorot_uniform().
  Initializer bias_initializer;   ///< Empty: zeros().
};
Layer Conv2D(int64_t filters, std::array<int64_t, 2> kernel_size,
             Conv2DOptions = {});

/// Pooling with strides = pool_size and VALID padding (Keras's defaults).
Layer MaxPooling2D(std::array<int64_t, 2> pool_size = {2, 2});
Layer AveragePooling2D(std::array<int64_t, 2> pool_size = {2, 2});
/// The mean over height and width: (N, H, W, C) -> (N, C).
Layer GlobalAveragePooling2D();
/// (N, d1, d2, ...) -> (N, d1 * d2 * ...).
Layer Flatten();
/// In training, zeroes each element with probability `rate` and scales the
/// rest by 1 / (1 - rate); identity in inference. Seed 0: unseeded.
Layer Dropout(double rate, uint64_t seed = 0);

struct BatchNormalizationOptions {
  double momentum = 0.99;
  double epsilon = 1e-3;
  bool center = true; ///< beta
  bool scale = true;  ///< gamma
};
/// Normalises the last axis with the batch's statistics in training
/// (updating the moving mean and variance: moving = moving * momentum +
/// batch * (1 - momentum)) and with the moving statistics in inference.
Layer BatchNormalization(BatchNormalizationOptions = {});
/// Normalises each example over its last axis (epsilon 1e-3).
Layer LayerNormalization(double epsilon = 1e-3);
/// Integer ids (any int or float dtype holding integers) -> rows of an
/// (input_dim, output_dim) table initialised uniform in [-0.05, 0.05].
Layer Embedding(int64_t input_dim, int64_t output_dim);
Layer Activation(const std::string &name);

/// Long short-term memory over (batch, time, features) inputs, run as one
/// tfc::while_loop over time: kernel (features, 4 units) Glorot-uniform,
/// recurrent kernel (units, 4 units) orthogonal, bias zeros but the forget
/// gate's ones (Keras's unit_forget_bias); gates in Keras's order i, f, c, o.
/// Returns the last output (batch, units), or every step's (batch, time,
/// units) with return_sequences.
Layer LSTM(int64_t units, bool return_sequences = false);
/// Gated recurrent unit, Keras 3's default form (reset_after: the reset
/// gate applies after the recurrent matmul; an input and a recurrent bias,
/// shape (2, 3 units)); gates in Keras's order z, r, h.
Layer GRU(int64_t units, bool return_sequences = false);

} // namespace layers
} // namespace tfc::keras

#endif // TFC_KERAS_LAYERS_H
