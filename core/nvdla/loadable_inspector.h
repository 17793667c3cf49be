// A loadable explained for people: what each task does ("task 1: DLA, 11 operations: 4 CONV, 5 SDP,
// 2 PDP"), what it reads and writes, and every list; and the same as JSON with every descriptor
// decoded field by field, by the interface version its blob declares.
#pragma once

#include "nvdla/loadable.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace tessera::nvdla {

std::string explainLoadable(const Loadable& loadable);
nlohmann::json loadableToJson(const Loadable& loadable);

}  // namespace tessera::nvdla
