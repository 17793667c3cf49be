#pragma once
// One row per node of a model, in the model's order: the step of the shown plan that runs it, op,
// input and output shapes, live activation bytes, parameters and MACs (the figures of
// `tessera inspect`), for a sortable table view.
#include "session/model_stats.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QString>

namespace tessera::views {

class StepTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // Order: the node's place in the model. PlanStep: the deployed step of the shown plan that runs
    // it (the timeline's step axis); layers fused into one step share it.
    enum Column { Order, PlanStep, Name, Op, Inputs, Outputs, LiveBytes, Params, Macs, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setStats(ModelStats stats);
    // The step of each node in the shown plan, by node name; nodes not in it show no step.
    void setPlanSteps(QHash<QString, int> stepOfNode);
    const ModelStats& stats() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The table as CSV (header row, then one row per step), as the user exports it.
    QString toCsv() const;

private:
    ModelStats stats_;
    QHash<QString, int> stepOfNode_;
};

} // namespace tessera::views
