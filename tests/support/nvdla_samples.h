// Small NVDLA loadables built through Tessera's loadable builder, for the loadable and fuzz tests.
#pragma once

#include "nvdla/descriptor_layout.h"
#include "nvdla/loadable.h"
#include "nvdla/loadable_validator.h"

#include <span>
#include <string>
#include <vector>

namespace tessera::testing {

// nv_full FP16: input 'data' 1x4x8x8; a DLA task of CONV 3x3 (8 kernels) with SDP bias + ReLU on the
// fly, then PDP max 8x8 to 1x1x8; an EMU task of Softmax to output 'prob' 1x8x1x1.
nvdla::Loadable sampleLoadable();

// Editing a loadable's first DLA task in place, to break one field: the blob `name`, the common
// descriptor, surface descriptor or operation descriptor of operation `op`, the network descriptor.
std::span<std::uint8_t> blobBytes(nvdla::Loadable& loadable, const std::string& name);
nvdla::Record common(nvdla::Loadable& loadable, int op);
nvdla::Record surface(nvdla::Loadable& loadable, int op, nvdla::DlaOp type);
nvdla::Record operation(nvdla::Loadable& loadable, int op, nvdla::DlaOp type);
nvdla::Record network(nvdla::Loadable& loadable);

// An error finding whose place contains `where` and whose message contains `message`.
bool hasFinding(const std::vector<nvdla::Finding>& findings, const std::string& where, const std::string& message = {});

}  // namespace tessera::testing
