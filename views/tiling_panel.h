#pragma once
// The tiling panel: the user kernels of an Autotiler tiling report (GenKernels.tiling.json) with
// their tiles, L1 use and DMA traffic, the tile layout of the selected one, and an L1 budget the
// user drags. The report carries its kernel model, so a new budget solves every kernel again, on
// a worker thread after a short debounce; results of superseded budgets are dropped. A budget too
// small for a kernel shows the solver's message for it instead of a layout.
#include "tiler/kernel_model.h"
#include "tiler/tile_solver.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QLabel;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace tessera::views {

class TileLayoutView;

// Every kernel of a model solved at one L1 budget. The results point into `model`.
struct ModelTilingSolution {
    std::shared_ptr<const tiler::KernelModel> model;
    std::uint64_t l1Budget = 0;
    std::vector<tiler::TileSolverResult> results;  // in the model's user-kernel order
    double milliseconds = 0;
    std::string error;  // why there are no results (the solver threw)
};

class TilingPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { Kernel, Tiles, L1Used, DmaBytes, ColumnCount };

    explicit TilingPanel(QWidget* parent = nullptr);
    ~TilingPanel() override;

    // Reads a tiling report written with its "model"; false (and errorShown) when the file is
    // missing, is not JSON, has no model or a broken one. The tiling follows with tilingShown().
    bool openTilingFile(const QString& path);
    // Shows the kernels of a model in hand (an export's, in process) solved at `l1Budget`;
    // `source` names where they come from (the report file the export wrote).
    void showKernelModel(std::shared_ptr<const tiler::KernelModel> model, std::uint64_t l1Budget,
                         const QString& source);
    QString filePath() const { return path_; }
    // Shows nothing (another model was opened); the budget stays.
    void clear();

    // Moves the budget controls; the kernels are solved again after the debounce.
    void setL1Budget(qint64 bytes);
    qint64 l1Budget() const;
    // The budget the shown results belong to (0 before the first solution).
    qint64 shownBudget() const;
    double lastSolveMilliseconds() const;

    int kernelCount() const;
    QString cell(int row, Column column) const;
    void selectKernel(int row);
    bool selectKernel(const QString& name);
    QString selectedKernel() const;
    // The messages of the kernels that have no tiling at the shown budget, or an empty string.
    QString message() const;

    TileLayoutView* layoutView() const { return layout_; }
    QSpinBox* budgetBox() const { return budgetBox_; }
    QSlider* budgetSlider() const { return budgetSlider_; }

signals:
    void tilingShown();
    void errorShown(const QString& message);
    void budgetEdited(qint64 bytes);  // the user moved the budget (not setL1Budget)

private:
    void onBudgetEdited();
    void startSolve();
    void onSolved(quint64 generation, const ModelTilingSolution& solution);
    void fillTable();
    void showSelected();
    void setBudgetControls(qint64 bytes);

    QSpinBox* budgetBox_ = nullptr;
    QSlider* budgetSlider_ = nullptr;
    QLabel* budgetNote_ = nullptr;
    QLabel* message_ = nullptr;
    QTableWidget* table_ = nullptr;
    TileLayoutView* layout_ = nullptr;
    QTimer* solveTimer_ = nullptr;

    QString path_;
    std::shared_ptr<const tiler::KernelModel> model_;
    std::unique_ptr<ModelTilingSolution> shown_;
    quint64 generation_ = 0;
};

// Solves every user kernel of `model` at `l1Budget` (the model's L2 size bounds staging buffers).
ModelTilingSolution solveModelTiling(std::shared_ptr<const tiler::KernelModel> model, std::uint64_t l1Budget);

} // namespace tessera::views
