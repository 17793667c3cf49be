#include "operator_style.h"

#include <QHash>
#include <QSet>

namespace tessera::views {

OperatorCategory operatorCategory(const QString& opType)
{
    static const QSet<QString> layers{"Conv", "ConvTranspose", "Gemm", "MatMul"};
    static const QSet<QString> activations{"Relu", "Clip", "Sigmoid", "Tanh", "LeakyRelu", "PRelu", "Elu", "Selu",
                                           "HardSigmoid", "HardSwish", "Softmax", "LogSoftmax", "Softplus"};
    static const QSet<QString> pools{"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool"};
    static const QSet<QString> norms{"BatchNormalization", "InstanceNormalization", "LayerNormalization", "LRN"};
    static const QSet<QString> shapes{"Reshape", "Flatten", "Transpose", "Squeeze", "Unsqueeze", "Concat", "Split",
                                      "Slice", "Gather", "Pad", "Shape", "Expand", "Tile"};
    static const QSet<QString> arithmetic{"Add", "Sub", "Mul", "Div", "Sum", "Max", "Min", "Mean", "Pow"};
    static const QHash<QString, OperatorCategory> units{
        {"CONV", OperatorCategory::DlaConv}, {"SDP", OperatorCategory::DlaSdp},     {"PDP", OperatorCategory::DlaPdp},
        {"CDP", OperatorCategory::DlaCdp},   {"RUBIK", OperatorCategory::DlaRubik}, {"BDMA", OperatorCategory::DlaBdma}};
    if (const auto unit = units.find(opType); unit != units.end())
        return *unit;
    if (opType.startsWith("EMU"))
        return OperatorCategory::Emulator;
    if (layers.contains(opType))
        return OperatorCategory::Layer;
    if (activations.contains(opType))
        return OperatorCategory::Activation;
    if (pools.contains(opType))
        return OperatorCategory::Pool;
    if (norms.contains(opType))
        return OperatorCategory::Normalization;
    if (shapes.contains(opType))
        return OperatorCategory::Shape;
    if (arithmetic.contains(opType))
        return OperatorCategory::Arithmetic;
    return OperatorCategory::Other;
}

QColor categoryColor(OperatorCategory category)
{
    switch (category) {
    case OperatorCategory::Layer: return QColor(0x33, 0x6f, 0xb8);
    case OperatorCategory::Activation: return QColor(0x9e, 0x3b, 0x3b);
    case OperatorCategory::Pool: return QColor(0x3b, 0x7d, 0x4f);
    case OperatorCategory::Normalization: return QColor(0x6c, 0x4f, 0x9e);
    case OperatorCategory::Shape: return QColor(0x6b, 0x6b, 0x6b);
    case OperatorCategory::Arithmetic: return QColor(0x2f, 0x7f, 0x86);
    case OperatorCategory::DlaConv: return QColor(0x2b, 0x5f, 0xa8);
    case OperatorCategory::DlaSdp: return QColor(0xc0, 0x6a, 0x1c);
    case OperatorCategory::DlaPdp: return QColor(0x3b, 0x7d, 0x4f);
    case OperatorCategory::DlaCdp: return QColor(0x7a, 0x4f, 0xa8);
    case OperatorCategory::DlaRubik: return QColor(0xa8, 0x3b, 0x6e);
    case OperatorCategory::DlaBdma: return QColor(0x5f, 0x6b, 0x78);
    case OperatorCategory::Emulator: return QColor(0x8a, 0x7a, 0x1e);
    case OperatorCategory::Other: break;
    }
    return QColor(0x55, 0x55, 0x55);
}

QColor unitColor(const QString& units)
{
    if (units == "view")
        return QColor(0xa0, 0xa0, 0xa0);
    if (units == "CANNOT RUN")
        return QColor(0xc0, 0x20, 0x20);
    return categoryColor(operatorCategory(units.section('+', 0, 0)));
}

} // namespace tessera::views
