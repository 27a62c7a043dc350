// The same golden values are checked by the native suite, the wasm suite and the Node tests of the module.
#include "approx.hpp"
#include "golden.hpp"
#include "nw/attention.hpp"
#include "nw/data.hpp"
#include "nw/training.hpp"

TEST_CASE("seed 1 reproduces the golden data bit for bit", "[golden][data]") {
  auto golden = goldenSeed1();
  nw::DataSpec spec;
  spec.seed = 1;
  const nw::Dataset data = nw::generateData(spec);
  CHECK(data.xTrain == golden["xTrain"]);
  CHECK(data.yTrain == golden["yTrain"]);
  CHECK(data.xTest == golden["xTest"]);
  CHECK(data.yTruth == golden["yTruth"]);
  CHECK(std::vector<double>{data.w0} == golden["w0"]);
}

TEST_CASE("seed 1 reproduces the golden predictions and training run", "[golden][training]") {
  auto golden = goldenSeed1();
  const auto& xTrain = golden["xTrain"];
  const auto& yTrain = golden["yTrain"];
  const auto predicted = nw::predict(golden["xTest"], xTrain, yTrain, 1.0);
  REQUIRE(predicted.size() == golden["predictW1"].size());
  for (std::size_t i = 0; i < predicted.size(); ++i) CHECK(predicted[i] == approx(golden["predictW1"][i], 1e-12));

  nw::Trainer trainer(xTrain, yTrain, golden["w0"][0], nw::kDefaultLearningRate);
  const auto& losses = golden["trainLosses"];
  for (double expected : losses) CHECK(trainer.step() == approx(expected, 1e-12));
  CHECK(trainer.w() == approx(golden["trainedW"][0], 1e-12));
}
