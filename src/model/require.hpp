// The models' argument check: throws std::invalid_argument with the message
// only when the check fails. The message is a callable, built only on
// failure: the models run in tight loops (isoefficiency searches, Q7 split
// choices), where formatting a number per call costs more than the price
// itself. Example: require(tau > 0, [&] { return "tau = " + std::to_string(tau); }).
#pragma once

#include <stdexcept>

namespace mmbench::model {

template <class Message>
void require(bool ok, Message&& message) {
  if (!ok) throw std::invalid_argument(message());
}

}  // namespace mmbench::model
