#include "scamp_trace_model.h"

#include <algorithm>

namespace tessera::views {

void ScampTraceModel::setTrace(std::shared_ptr<const scamp::ProgramTrace> trace)
{
    beginResetModel();
    trace_ = std::move(trace);
    endResetModel();
}

int ScampTraceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !trace_ ? 0 : int(trace_->steps());
}

int ScampTraceModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !trace_ ? 0 : 1 + int(trace_->registers.size());
}

const scamp::Instruction* ScampTraceModel::instructionAt(int row) const
{
    if (!trace_ || row < 1 || row > int(trace_->instructions.size()))
        return nullptr;
    return &trace_->instructions[size_t(row - 1)];
}

const scamp::Goal* ScampTraceModel::goalAt(const QModelIndex& index) const
{
    if (!trace_ || !index.isValid() || index.column() == kInstructionColumn || index.row() >= int(trace_->steps()))
        return nullptr;
    const auto& goal = trace_->goals[size_t(index.row())][size_t(index.column() - 1)];
    return goal ? &*goal : nullptr;
}

bool ScampTraceModel::isWritten(const QModelIndex& index) const
{
    const scamp::Instruction* instruction = instructionAt(index.row());
    if (!instruction || index.column() < 1)
        return false;
    const std::string& name = trace_->registers[size_t(index.column() - 1)];
    return instruction->dest == name || instruction->secondDest == name;
}

bool ScampTraceModel::isClobbered(const QModelIndex& index) const
{
    const scamp::Instruction* instruction = instructionAt(index.row());
    if (!instruction || index.column() < 1)
        return false;
    const std::string& name = trace_->registers[size_t(index.column() - 1)];
    const std::vector<std::string> clobbered = instruction->clobbered();
    return std::find(clobbered.begin(), clobbered.end(), name) != clobbered.end();
}

int ScampTraceModel::columnOfRegister(const QString& name) const
{
    if (!trace_)
        return -1;
    const int index = trace_->registerIndex(name.toStdString());
    return index < 0 ? -1 : index + 1;
}

QVariant ScampTraceModel::data(const QModelIndex& index, int role) const
{
    if (!trace_ || !index.isValid())
        return {};
    if (index.column() == kInstructionColumn) {
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        const scamp::Instruction* instruction = instructionAt(index.row());
        if (!instruction)
            return QString("start: input in %1").arg(QString::fromStdString(trace_->inputRegister));
        return QString("%1  %2").arg(index.row()).arg(QString::fromStdString(instruction->toString()));
    }
    const scamp::Goal* goal = goalAt(index);
    const QString name = QString::fromStdString(trace_->registers[size_t(index.column() - 1)]);
    const QString value = goal ? QString::fromStdString(goal->toString()) : QString("no value");
    switch (role) {
    case Qt::DisplayRole:
        return value;
    case Qt::ToolTipRole: {
        QString text = QString("%1 after step %2: %3").arg(name).arg(index.row()).arg(value);
        if (goal)
            text += QString("\nin units of 1/%1 of the input (d = %2)").arg(qint64(1) << trace_->depth).arg(trace_->depth);
        if (isWritten(index))
            text += "\nwritten by this instruction";
        if (isClobbered(index))
            text += "\nclobbered as scratch by this instruction";
        return text;
    }
    default:
        return {};
    }
}

QVariant ScampTraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || !trace_)
        return {};
    if (orientation == Qt::Vertical)
        return section;
    if (section == kInstructionColumn)
        return QString("Instruction");
    return QString::fromStdString(trace_->registers[size_t(section - 1)]);
}

} // namespace tessera::views
