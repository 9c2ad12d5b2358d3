//===- FashionModels.h - Fashion-MNIST models of the examples -*- C++ -*-===//
//
// The MLP (784-256-128-10) and the CNN (Keras's simple convnet) that
// examples/fashion_mnist and examples/distributed train.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_EXAMPLES_FASHIONMODELS_H
#define TFC_EXAMPLES_FASHIONMODELS_H

#include <tfc/tfc.h>

#include <string>

/// "cnn" or anything else (the MLP).
inline tfc::keras::Model build_fashion_model(const std::string &kind) {
  using namespace tfc::keras;
  if (kind == "cnn")
    return Sequential({layers::Conv2D(32, {3, 3}, {.activation = "relu"}),
                       layers::MaxPooling2D(),
                       layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
                       layers::MaxPooling2D(), layers::Flatten(),
                       layers::Dropout(0.5), layers::Dense(10)},
                      "fashion_cnn");
  return Sequential(
      {layers::Flatten(), layers::Dense(256, {.activation = "relu"}),
       layers::Dense(128, {.activation = "relu"}), layers::Dense(10)},
      "fashion_mlp");
}

#endif // TFC_EXAMPLES_FASHIONMODELS_H
