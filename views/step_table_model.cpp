#include "step_table_model.h"

#include <QStringList>

#include <utility>

namespace tessera::views {

namespace {

QString shapesText(const std::vector<Shape>& shapes)
{
    QStringList parts;
    for (const Shape& shape : shapes)
        parts << QString::fromStdString(shapeToString(shape));
    return parts.join(' ');
}

} // namespace

void StepTableModel::setStats(ModelStats stats)
{
    beginResetModel();
    stats_ = std::move(stats);
    endResetModel();
}

void StepTableModel::setPlanSteps(QHash<QString, int> stepOfNode)
{
    stepOfNode_ = std::move(stepOfNode);
    if (rowCount() > 0)
        emit dataChanged(index(0, PlanStep), index(rowCount() - 1, PlanStep));
}

int StepTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(stats_.nodes.size());
}

int StepTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(stats_.nodes.size()))
        return {};
    const NodeStats& node = stats_.nodes[size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() >= LiveBytes || index.column() <= PlanStep ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                          : QVariant();
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    // Numbers stay numbers so the proxy sorts them numerically.
    switch (index.column()) {
    case Order: return index.row();
    case PlanStep: {
        const int step = stepOfNode_.value(QString::fromStdString(node.name), -1);
        return step >= 0 ? QVariant(step) : QVariant();
    }
    case Name: return QString::fromStdString(node.name);
    case Op: return QString::fromStdString(node.opType);
    case Inputs: return shapesText(node.inputShapes);
    case Outputs: return shapesText(node.outputShapes);
    case LiveBytes: return qlonglong(node.liveActivationBytes);
    case Params: return qlonglong(node.parameters);
    case Macs: return qlonglong(node.macs);
    default: return {};
    }
}

QVariant StepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && (section == Order || section == PlanStep))
        return section == Order ? QString("The node's place in the model")
                                : QString("The step of the plan that runs the node, as on the timeline's axis "
                                          "(layers fused into one step share it)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"#", "step", "node", "op", "inputs", "outputs", "live bytes", "params", "MACs"};
    return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

QString StepTableModel::toCsv() const
{
    auto quote = [](QString text) {
        if (text.contains(',') || text.contains('"'))
            text = '"' + text.replace('"', "\"\"") + '"';
        return text;
    };
    QStringList lines;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c)
        header << headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().replace(' ', '_');
    lines << header.join(',');
    for (int r = 0; r < rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells << quote(data(this->index(r, c), Qt::DisplayRole).toString());
        lines << cells.join(',');
    }
    return lines.join('\n') + '\n';
}

} // namespace tessera::views
