#pragma once
// The AI Engine view: the per-layer split table of an AiePlan and, for the selected layer, the
// compute tile's data memory drawn as banks with the kernel's ping-pong buffers placed in them.
// The architecture and the tile size are chosen here; the owner re-plans when they change.
#include "aie/split_planner.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace tessera::views {

class TileBanksWidget;

class AieView : public QWidget {
    Q_OBJECT

public:
    explicit AieView(QWidget* parent = nullptr);

    void showPlan(const aie::AiePlan& plan);
    void showProblem(const QString& message);
    void clear();

    // The architecture chosen, with the tile size the user set.
    aie::AieArchitecture architecture() const;
    void setArchitecture(const QString& name);
    // The tile's data memory in KB, as the spin box sets it (re-plans).
    void setTileKB(int kb);
    int rowCount() const;
    // Makes `row` the current layer, as a click on it does.
    void selectRow(int row);
    QString cell(int row, int column) const;
    QString message() const;
    // Whether the layer of `row` does not fit the tile (its row is marked, with the reason).
    bool isRefused(int row) const;
    void selectLayer(int row);

signals:
    void architectureChanged();
    void layerSelected(int node);  // the user picked a layer: its main node (NodeId)

private:
    void onArchitectureBox();

    QComboBox* archBox_ = nullptr;
    QSpinBox* tileBox_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* message_ = nullptr;
    TileBanksWidget* banks_ = nullptr;
    std::optional<aie::AiePlan> plan_;
};

} // namespace tessera::views
