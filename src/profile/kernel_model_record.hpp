// The profile's record of tune's kernel-model step (profile key
// "kernel_model"; docs/machine-profile.md): the fitted DGEMM and pass
// prices of core/kernel_time_model.hpp and where the raw timings went.
// Optional: profiles written before it, or with tune --no-kernel-model,
// have none, and charged simulations then keep their flat prices.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/kernel_time_model.hpp"

namespace mmbench::profile {

// `csv`: the raw timings' CSV ("" = not written).
nlohmann::ordered_json kernel_model_to_json(const KernelTimeModel& model, const std::string& csv);
// Throws ProfileError(origin, "field 'kernel_model.…' …") on a malformed
// record: a missing or wrongly typed field, a coefficient or spread that is
// negative or not finite, a flop or byte term that is not positive.
KernelTimeModel kernel_model_from_json(const nlohmann::ordered_json& j, const std::string& origin, std::string& csv);

}  // namespace mmbench::profile
