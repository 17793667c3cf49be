#pragma once
// One row per execution step of a model: op, input and output shapes, live activation bytes,
// parameters and MACs (the figures of `tessera inspect`), for a sortable table view.
#include "session/model_stats.h"

#include <QAbstractTableModel>

namespace tessera::views {

class StepTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Step, Name, Op, Inputs, Outputs, LiveBytes, Params, Macs, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setStats(ModelStats stats);
    const ModelStats& stats() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The table as CSV (header row, then one row per step), as the user exports it.
    QString toCsv() const;

private:
    ModelStats stats_;
};

} // namespace tessera::views
