//===- saved_model.cpp - save a model in one process, run it in another ---===//
//
//   saved_model save DIR        builds a seeded CNN, saves it to DIR with a
//                               sample input (input.npy), the saved
//                               function's predictions on it in this process
//                               (expected.npy) and model.predict's
//                               (predict.npy)
//   saved_model load DIR        loads DIR with no model code, runs input.npy
//                               and compares with expected.npy bit for bit
//                               and with predict.npy to 1e-6
//   saved_model compare A B     compares two .npy files bit for bit
//
// test/Examples/saved-model.test runs the three in separate processes, and
// tfc-run on the same directory.
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace tfc;

static int compare(const Tensor &want, const Tensor &got) {
  if (want.shape() != got.shape() || want.dtype() != got.dtype() ||
      std::memcmp(want.raw_data(), got.raw_data(), want.nbytes()) != 0) {
    std::printf("predictions differ: %s vs %s\n", want.str().c_str(),
                got.str().c_str());
    return 1;
  }
  std::printf("identical predictions, shape %s\n",
              shape_to_string(got.shape()).c_str());
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 4 && std::strcmp(argv[1], "compare") == 0)) {
    std::fprintf(stderr, "usage: %s save|load DIR | compare A.npy B.npy\n",
                 argv[0]);
    return 2;
  }
  std::string cmd = argv[1], dir = argv[2];
  try {
    if (cmd == "save") {
      using namespace tfc::keras;
      set_random_seed(3);
      Model model =
          Sequential({layers::Conv2D(8, {3, 3}, {.activation = "relu"}),
                      layers::MaxPooling2D(), layers::Flatten(),
                      layers::Dense(10, {.activation = "softmax"})});
      model.build({-1, 12, 12, 1});
      saved_model::save(model, dir, {12, 12, 1});
      Tensor x = random::Generator::from_seed(11).normal({5, 12, 12, 1});
      save_npy(dir + "/input.npy", x);
      // The saved function's predictions in this process, and the model's.
      save_npy(dir + "/expected.npy",
               saved_model::load(dir).call("serving_default", {x})[0]);
      save_npy(dir + "/predict.npy", model.predict(x));
      std::printf("saved %s\n", dir.c_str());
      return 0;
    }
    if (cmd == "load") {
      saved_model::Loaded loaded = saved_model::load(dir);
      Tensor got =
          loaded.call("serving_default", {load_npy(dir + "/input.npy")})[0];
      // model.predict ran a function traced for this batch of 5; the saved
      // one has a dynamic batch, whose matmuls OpenBLAS computes (the static
      // 5-row ones are inlined loops): equal up to float rounding.
      Tensor predicted = load_npy(dir + "/predict.npy");
      double diff = reduce_max(abs(got - predicted)).item<float>();
      std::printf("model.predict in the saving process: max |diff| %.1e\n",
                  diff);
      if (!(diff <= 1e-6))
        return 1;
      return compare(load_npy(dir + "/expected.npy"), got);
    }
    if (cmd == "compare")
      return compare(load_npy(argv[2]), load_npy(argv[3]));
    std::fprintf(stderr, "unknown command '%s'\n", cmd.c_str());
    return 2;
  } catch (const Error &e) {
    std::fprintf(stderr, "saved_model: %s\n", e.what());
    return 1;
  }
}
