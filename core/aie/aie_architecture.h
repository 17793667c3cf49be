#pragma once
// AMD AI Engine generations as data: local tile memory and its banks, the memory tile, DMA
// channels and locks. The split planner reads only this.
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::aie {

struct AieArchitecture {
    std::string name;            // "aie", "aie-ml", "aie-ml-v2"
    int64_t tileBytes = 0;       // data memory of one compute tile
    int banks = 8;
    int64_t memtileBytes = 0;    // 0: the generation has no memory tile
    int tileDmaChannels = 2;     // S2MM and MM2S each
    int memtileDmaChannels = 0;  // S2MM and MM2S each
    int tileLocks = 16;
    int64_t streamBits = 32;

    int64_t bankBytes() const { return tileBytes / banks; }
    // Bytes a double-buffered (ping-pong) port may take: each of its two buffers spans two banks,
    // so the pair takes half the tile and input and output pairs fit side by side.
    int64_t pingPongBudget() const { return tileBytes / 2; }
    bool hasMemoryTile() const { return memtileBytes > 0; }
};

AieArchitecture aieArchitecture(const std::string& name); // throws Error listing the known names
std::vector<std::string> aieArchitectureNames();

} // namespace tessera::aie
