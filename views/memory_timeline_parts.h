#pragma once
// The memory timeline's own parts, shared by its two source files (memory_timeline.cpp: the widget,
// its state and the mouse; memory_timeline_drawing.cpp: drawing the panels). Not for other views.
#include "memory_timeline.h"

#include <qcustomplot.h>

#include <QColor>
#include <QHash>
#include <QString>

#include <vector>

namespace tessera::views {

namespace timeline {

inline constexpr double kKiB = 1024.0;
inline constexpr int kGrabPixels = 6;         // how close to the budget line a press starts a drag
inline constexpr int kMostNamedBlocks = 400;  // beyond this many rectangles a panel names none

inline const PlacementKind kKinds[] = {PlacementKind::Activation, PlacementKind::Constant, PlacementKind::Staging,
                                PlacementKind::Prefetch};

inline QColor kindColor(PlacementKind kind)
{
    switch (kind) {
    case PlacementKind::Activation: return QColor(0x4a, 0x86, 0xc8);
    case PlacementKind::Constant: return QColor(0xd9, 0x9a, 0x2b);
    case PlacementKind::Staging: return QColor(0x8c, 0x8c, 0x8c);
    case PlacementKind::Prefetch: return QColor(0x5a, 0xa8, 0x6a);
    }
    return Qt::gray;
}

inline const QColor kBudgetColor(0xd0, 0x30, 0x30);
inline const QColor kLowerBoundColor(0x40, 0x80, 0x40);
inline const QColor kPushedOutColor(0xc0, 0x20, 0x20);
inline const QColor kTrafficColor(0x8e, 0x5a, 0xb8);

// One placement across plans: the same tensor, kind and first step (a tensor can have several
// placements, e.g. a constant's L2 copy and its flash image, or a spilled tensor's staging buffer).
inline QString motionKey(const TensorPlacement& p)
{
    return QString("%1|%2|%3").arg(QString::fromStdString(p.tensor)).arg(int(p.kind)).arg(p.lower);
}

inline QString describe(const TensorPlacement& p)
{
    return QString("%1 (%2)\n%3 offset %4, %5 bytes\nsteps %6-%7\n%8")
        .arg(QString::fromStdString(p.tensor), QString::fromStdString(placementKindName(p.kind)),
             QString::fromStdString(p.level))
        .arg(p.offset)
        .arg(p.size)
        .arg(p.lower)
        .arg(p.upper - 1)
        .arg(QString::fromStdString(p.reason));
}

inline bool contains(const TensorPlacement& p, double step, qint64 address)
{
    return step >= double(p.lower) && step < double(p.upper) && address >= p.offset && address < p.offset + p.size;
}

} // namespace timeline

struct MemoryTimeline::Moving {
    QCPItemRect* rect = nullptr;
    double lower = 0, upper = 0;          // steps
    double fromOffset = 0, toOffset = 0;  // bytes
    double size = 0;
    QColor fill;
    int fromAlpha = 0, toAlpha = 0;
};

struct MemoryTimeline::Panel {
    QCustomPlot* plot = nullptr;
    QString level;
    std::vector<const TensorPlacement*> placements;
    int rectangles = 0;
    QHash<QString, QCPItemRect*> items;  // the rectangles of `placements`, by motionKey
    std::vector<Moving> moving;          // what the running move animation moves in this panel
    QStringList arriving;                // tensors coming from another panel
    std::vector<QCPItemText*> lineLabels;
    double keptTop = 0;                  // the y range never shrinks while one model is shown
    QCPGraph* inUse = nullptr;           // bytes live at each step (the memory-in-use curve)
    QCPBars* traffic = nullptr;          // L3 traffic per step, on the right axis (second panel only)
    int mostInUseStep = -1;              // where that curve is highest, and how high
    std::int64_t mostInUse = 0;
    size_t drawn = 0;                    // what was drawn last (drawingKey); 0: nothing yet
};

} // namespace tessera::views
