// Which of the two cost models prices a candidate: the paper's formulas
// (Tab. 2.5 as printed, paper_model.hpp) or the refined ones
// (refined_model.hpp).
#pragma once

#include <string>

namespace mmbench::model {

enum class ModelKind { refined, paper };
// "refined" / "paper".
std::string to_string(ModelKind kind);
// Throws std::invalid_argument naming the word and the allowed values.
ModelKind parse_model_kind(const std::string& word);

}  // namespace mmbench::model
