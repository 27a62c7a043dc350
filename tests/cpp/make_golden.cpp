// Prints the golden values that the native and wasm Catch2 suites and the Node tests all compare against:
// the default data for seed 1, its nonparametric predictions, and the chapter's 5 training epochs.
#include <cstdio>
#include <string>
#include <vector>

#include "nw/attention.hpp"
#include "nw/data.hpp"
#include "nw/training.hpp"

namespace {

void printRow(const char* name, const std::vector<double>& values) {
  std::printf("%s", name);
  for (double v : values) std::printf(" %.17g", v);
  std::printf("\n");
}

}  // namespace

int main() {
  nw::DataSpec spec;
  spec.seed = 1;
  const nw::Dataset data = nw::generateData(spec);
  std::printf("# Golden values: nw::generateData defaults with seed 1 (written by nw_golden, native build).\n");
  std::printf("# Data rows must match bit for bit in every build; the others to 1e-12 relative.\n");
  printRow("xTrain", data.xTrain);
  printRow("yTrain", data.yTrain);
  printRow("xTest", data.xTest);
  printRow("yTruth", data.yTruth);
  printRow("w0", {data.w0});
  printRow("predictW1", nw::predict(data.xTest, data.xTrain, data.yTrain, 1.0));

  nw::Trainer trainer(data.xTrain, data.yTrain, data.w0, nw::kDefaultLearningRate);
  std::vector<double> losses;
  for (int epoch = 0; epoch < nw::kDefaultEpochs; ++epoch) losses.push_back(trainer.step());
  printRow("trainLosses", losses);
  printRow("trainedW", {trainer.w()});
  return 0;
}
