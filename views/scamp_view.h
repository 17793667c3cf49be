#pragma once
// The SCAMP-5 view: a kernels file and the search settings, a Run/Stop button with the search's
// progress and live best count, the program's trace (one row per instruction, one heat-map column
// per register) and the register planes of the selected step on an image. It shows what it is
// given and sends the user's requests out; the studio runs the search and builds the trace.
#include "scamp/program_trace.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace tessera::views {

class RegisterPlanesWidget;
class ScampTraceModel;

class ScampView : public QWidget {
    Q_OBJECT

public:
    struct SearchSettings {
        bool allOps = true;
        double seconds = 10.0;
        int threads = 2;
    };

    explicit ScampView(QWidget* parent = nullptr);

    SearchSettings settings() const;
    void setSettings(const SearchSettings& settings);

    // A one-line description of the open kernels ("gauss3x3: 1 kernel, d = 4, ...").
    void setKernelsText(const QString& text);
    // Shows a program's trace; the selected step is kept when the new trace has it.
    void showTrace(std::shared_ptr<const scamp::ProgramTrace> trace);
    void clearTrace();
    void setRunning(bool running);
    bool isRunning() const { return running_; }
    // fraction in [0, 1] of the search time used; text is the best so far.
    void showProgress(double fraction, const QString& text);
    // A verification result or a problem (drawn in the error colour when `problem`).
    void showMessage(const QString& text, bool problem);

    int currentStep() const;
    void setCurrentStep(int step);

    QString kernelsText() const;
    QString progressText() const;
    int progressPercent() const;
    QString message() const;
    bool messageIsProblem() const { return messageIsProblem_; }
    ScampTraceModel* traceModel() const { return model_; }
    QTableView* traceTable() const { return table_; }
    RegisterPlanesWidget* planes() const { return planes_; }
    QPushButton* runButton() const { return runButton_; }

signals:
    void openKernelsRequested();
    void openProgramRequested();
    void imageRequested();
    void saveProgramRequested();
    void runRequested();
    void stopRequested();

private:
    void onStepSelected(int step);
    void updateStepLabel();

    QComboBox* opsBox_ = nullptr;
    QDoubleSpinBox* secondsBox_ = nullptr;
    QSpinBox* threadsBox_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* saveButton_ = nullptr;
    QLabel* kernelsLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* progressLabel_ = nullptr;
    QLabel* message_ = nullptr;
    QTableView* table_ = nullptr;
    ScampTraceModel* model_ = nullptr;
    RegisterPlanesWidget* planes_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    bool running_ = false;
    bool messageIsProblem_ = false;
};

} // namespace tessera::views
