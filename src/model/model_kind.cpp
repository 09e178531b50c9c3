#include "model/model_kind.hpp"

#include <stdexcept>

namespace mmbench::model {

std::string to_string(ModelKind kind) { return kind == ModelKind::paper ? "paper" : "refined"; }

ModelKind parse_model_kind(const std::string& word) {
  if (word == "refined") return ModelKind::refined;
  if (word == "paper") return ModelKind::paper;
  throw std::invalid_argument("unknown model '" + word + "'; allowed: refined, paper");
}

}  // namespace mmbench::model
