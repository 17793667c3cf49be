#pragma once
// The rows of a SCAMP-5 trace: row 0 is the start (the input in its register), row k the state
// after instruction k. Column 0 is the instruction; then one column per register, whose cell is
// that register's goal at that point (drawn as a coefficient heat map by CoefficientHeatmapDelegate).
#include "scamp/program_trace.h"

#include <QAbstractTableModel>

#include <memory>

namespace tessera::views {

class ScampTraceModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int kInstructionColumn = 0;

    using QAbstractTableModel::QAbstractTableModel;

    void setTrace(std::shared_ptr<const scamp::ProgramTrace> trace);
    const scamp::ProgramTrace* trace() const { return trace_.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The goal shown in a register cell: nullptr for the instruction column or a register without a value.
    const scamp::Goal* goalAt(const QModelIndex& index) const;
    // Whether the row's instruction writes (or clobbers as scratch) the cell's register.
    bool isWritten(const QModelIndex& index) const;
    bool isClobbered(const QModelIndex& index) const;
    int columnOfRegister(const QString& name) const; // -1 when unknown

private:
    const scamp::Instruction* instructionAt(int row) const;

    std::shared_ptr<const scamp::ProgramTrace> trace_;
};

} // namespace tessera::views
