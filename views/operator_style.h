#pragma once
// How operators look in the graph view: a category per op type and its header colour, in the
// spirit of model viewers (layers blue, activations red, pooling green, shape ops grey); NVDLA's
// units ("CONV", "SDP", "PDP", "CDP", "RUBIK", "BDMA", and "EMU ..." for the CPU) each a colour of
// their own.
#include <QColor>
#include <QString>

namespace tessera::views {

enum class OperatorCategory {
    Layer, Activation, Pool, Normalization, Shape, Arithmetic,
    DlaConv, DlaSdp, DlaPdp, DlaCdp, DlaRubik, DlaBdma, Emulator,
    Other
};

OperatorCategory operatorCategory(const QString& opType);
QColor categoryColor(OperatorCategory category);
// The colour of a unit mapping ("CONV+SDP" takes the first unit's; "view" a light grey; "CANNOT
// RUN" red).
QColor unitColor(const QString& units);

} // namespace tessera::views
