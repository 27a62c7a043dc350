// The scoring functions' raw Embind functions (scoring_bindings.cpp), registered in bindings.cpp.
#pragma once

#include <emscripten/val.h>

namespace nw::js {

emscripten::val scoringWeights(emscripten::val queries, emscripten::val keys, emscripten::val options);
emscripten::val scoringPredict(emscripten::val queries, emscripten::val keys, emscripten::val values, emscripten::val options);
emscripten::val scoringBlocks(emscripten::val queries, emscripten::val keys, emscripten::val values, emscripten::val options);
emscripten::val scoringLooLoss(emscripten::val xTrain, emscripten::val yTrain, emscripten::val options);
emscripten::val scoringLooRows(emscripten::val xTrain, emscripten::val yTrain, emscripten::val options);
emscripten::val gaussianFeatures(emscripten::val queries, emscripten::val keys, emscripten::val options);
emscripten::val dotProductWeights(emscripten::val queryFeatures, emscripten::val keyFeatures, emscripten::val options);

}  // namespace nw::js
