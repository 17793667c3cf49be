// A host model of the SCAMP-5 SDK's analogue kernel API, for compiling and running the C++ that
// `tessera scamp --format scamp5` writes. It declares what such code uses as the SDK does
// (scamp5_kernel_begin/end, AREG A..F, news_t north/east/south/west, the macros in
// scamp5_kernel_api) and gives each macro its documented meaning as a sequence of bus operations,
// the chip's primitive: bus(d, s1..sk) sets d := -(s1 + ... + sk) in every processing element,
// bus2(d1, d2, s) sets d1 = d2 := -s/2, and XN/XE/XS/XW name the NEWS register of the neighbour
// to the north/east/south/west. The model is exact (no analogue error) and reads zero beyond the
// edge of the array. It is written for the tests, independently of Tessera's own simulator.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace SCAMP5_PE {

struct AREG {
    int index;
};
using ASRC = AREG;
enum news_t { north, east, south, west };

inline constexpr AREG A{0}, B{1}, C{2}, D{3}, E{4}, F{5}, NEWS{6}, XN{7}, XE{8}, XS{9}, XW{10};

} // namespace SCAMP5_PE

namespace scamp5_model {

using SCAMP5_PE::AREG;

// The array: registers A..F and NEWS of size x size processing elements, row-major, y northwards.
struct Array {
    int size = 0;
    std::array<std::vector<double>, 7> planes;

    void resize(int n)
    {
        size = n;
        for (auto& plane : planes)
            plane.assign(std::size_t(n) * std::size_t(n), 0.0);
    }
};

inline Array& array()
{
    static Array instance;
    return instance;
}

// The neighbour a NEWS alias points to: XN is the north neighbour's NEWS, and so on.
inline bool alias(AREG r, int& dx, int& dy)
{
    dx = r.index == 8 ? 1 : r.index == 10 ? -1 : 0;
    dy = r.index == 7 ? 1 : r.index == 9 ? -1 : 0;
    return r.index >= 7;
}

inline double readAt(AREG r, int x, int y)
{
    Array& a = array();
    int dx = 0, dy = 0;
    const int plane = alias(r, dx, dy) ? 6 : r.index;
    x += dx;
    y += dy;
    if (x < 0 || y < 0 || x >= a.size || y >= a.size)
        return 0.0;
    return a.planes[std::size_t(plane)][std::size_t(y * a.size + x)];
}

// Writes `values` (one per processing element) into d, through the alias when d is one.
inline void writeAll(AREG d, const std::vector<double>& values)
{
    Array& a = array();
    int dx = 0, dy = 0;
    const int plane = alias(d, dx, dy) ? 6 : d.index;
    for (int y = 0; y < a.size; ++y)
        for (int x = 0; x < a.size; ++x) {
            const int tx = x + dx, ty = y + dy;
            if (tx >= 0 && ty >= 0 && tx < a.size && ty < a.size)
                a.planes[std::size_t(plane)][std::size_t(ty * a.size + tx)] = values[std::size_t(y * a.size + x)];
        }
}

inline void bus(AREG d, std::initializer_list<AREG> sources)
{
    Array& a = array();
    std::vector<double> values(std::size_t(a.size) * std::size_t(a.size), 0.0);
    for (int y = 0; y < a.size; ++y)
        for (int x = 0; x < a.size; ++x) {
            double sum = 0.0;
            for (AREG s : sources)
                sum += readAt(s, x, y);
            values[std::size_t(y * a.size + x)] = -sum;
        }
    writeAll(d, values);
}

inline void bus2(AREG d1, AREG d2, AREG s)
{
    Array& a = array();
    std::vector<double> values(std::size_t(a.size) * std::size_t(a.size), 0.0);
    for (int y = 0; y < a.size; ++y)
        for (int x = 0; x < a.size; ++x)
            values[std::size_t(y * a.size + x)] = -readAt(s, x, y) / 2.0;
    writeAll(d1, values);
    writeAll(d2, values);
}

// The alias a value is sent through so that it arrives from `dir`, and the one read to take it.
inline AREG sendToward(SCAMP5_PE::news_t dir)
{
    using namespace SCAMP5_PE;
    return dir == east ? XW : dir == west ? XE : dir == north ? XS : XN;
}
inline AREG receiveFrom(SCAMP5_PE::news_t dir)
{
    using namespace SCAMP5_PE;
    return dir == east ? XE : dir == west ? XW : dir == north ? XN : XS;
}

} // namespace scamp5_model

namespace scamp5_kernel_api {

using namespace SCAMP5_PE;
using scamp5_model::bus;
using scamp5_model::bus2;
using scamp5_model::receiveFrom;
using scamp5_model::sendToward;

inline void res(AREG a) { bus(NEWS, {}); bus(a, {NEWS}); }
inline void res(AREG a, AREG b) { bus(NEWS, {}); bus(a, {NEWS}); bus(b, {NEWS}); }
inline void mov(AREG y, ASRC x0) { bus(NEWS, {x0}); bus(y, {NEWS}); }
inline void add(AREG y, ASRC x0, ASRC x1) { bus(NEWS, {x0, x1}); bus(y, {NEWS}); }
inline void add(AREG y, ASRC x0, ASRC x1, ASRC x2) { bus(NEWS, {x0, x1, x2}); bus(y, {NEWS}); }
inline void sub(AREG y, ASRC x0, ASRC x1) { bus(NEWS, {x0}); bus(y, {NEWS, x1}); }
inline void neg(AREG y, ASRC x0) { bus(NEWS, {}); bus(y, {NEWS, x0}); }
inline void divq(AREG y0, ASRC x0) { bus2(y0, NEWS, x0); bus(y0, {NEWS}); }
inline void div(AREG y0, AREG y1, AREG y2)
{
    bus2(y0, y1, y2); bus(NEWS, {y2, y1}); bus(y2, {NEWS, y0}); bus2(y0, y1, y2); bus(y0, {y1});
}
inline void div(AREG y0, AREG y1, AREG y2, ASRC x0)
{
    bus2(y0, y1, x0); bus(NEWS, {x0, y1}); bus(y2, {NEWS, y0}); bus2(y0, y1, y2); bus(y0, {y1});
}
inline void diva(AREG y0, AREG y1, AREG y2)
{
    bus2(y1, y2, y0); bus(NEWS, {y1, y0}); bus(y0, {NEWS, y2}); bus2(y1, y2, y0); bus(y0, {y1});
}
inline void movx(AREG y, ASRC x0, news_t dir) { bus(sendToward(dir), {x0}); bus(y, {NEWS}); }
inline void mov2x(AREG y, ASRC x0, news_t dir, news_t dir2) { bus(sendToward(dir), {x0}); bus(y, {receiveFrom(dir2)}); }
inline void addx(AREG y, ASRC x0, ASRC x1, news_t dir) { bus(sendToward(dir), {x0, x1}); bus(y, {NEWS}); }
inline void add2x(AREG y, ASRC x0, ASRC x1, news_t dir, news_t dir2)
{
    bus(sendToward(dir), {x0, x1}); bus(y, {receiveFrom(dir2)});
}
inline void subx(AREG y, ASRC x0, news_t dir, ASRC x1) { bus(sendToward(dir), {x0}); bus(y, {NEWS, x1}); }
inline void sub2x(AREG y, ASRC x0, news_t dir, news_t dir2, ASRC x1)
{
    bus(sendToward(dir), {x0}); bus(y, {receiveFrom(dir2), x1});
}

} // namespace scamp5_kernel_api

// As in the SDK: a kernel is a block in which the macros are in scope.
#define scamp5_kernel_begin() { using namespace SCAMP5_PE; using namespace scamp5_kernel_api;
#define scamp5_kernel_end() }
