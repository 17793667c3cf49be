// The studio window's files: models, projects, tiling reports and SCAMP-5 kernels opened (by
// dialog, drop or the recent list), projects saved, the step table exported, and the shortcuts.
#include "studio_window.h"
#include "studio_support.h"

#include "project_folder_dialog.h"
#include "byte_size_spin_box.h"
#include "graph_view.h"
#include "loadable_inspector_view.h"
#include "memory_timeline.h"
#include "scamp_view.h"
#include "scamp_workbench.h"
#include "step_table_model.h"
#include "tiling_panel.h"
#include "welcome_page.h"

#include "base/error.h"
#include "onnx/onnx_export.h"
#include "session/project.h"
#include "zoo/zoo.h"

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>

#include <functional>

namespace tessera::studio {

namespace {

constexpr int kRecentFiles = 8;
const char* const kRecentKey = "recentFiles";

} // namespace

void StudioWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void StudioWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    openAnyFile(urls.front().toLocalFile());
}

void StudioWindow::openAnyFile(const QString& path)
{
    if (path.endsWith(".json", Qt::CaseInsensitive))
        openProject(path);
    else if (path.endsWith(".nvdla", Qt::CaseInsensitive))
        openLoadable(path);
    else
        openModel(path);
}

bool StudioWindow::openLoadable(const QString& path)
{
    auto* dock = findChild<QDockWidget*>("nvdla");
    dock->show();
    dock->raise();
    if (!loadableView_->openFile(path)) {
        showError("Cannot open NVDLA loadable", loadableView_->message());
        return false;
    }
    rememberRecent(path);
    if (!graph_) // nothing else to look at: give the inspector room
        enlargeToolDock(dock, height() * 2 / 3);
    statusLabel_->setText("NVDLA loadable " + loadableView_->fileName() + ": " +
                          QString(loadableView_->summary()).replace("<br>", "; ").remove(QRegularExpression("<[^>]*>")));
    emit loadableShown();
    return true;
}

void StudioWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open model or loadable", {},
                                                      "ONNX models (*.onnx);;NVDLA loadables (*.nvdla);;All files (*)");
    if (!path.isEmpty())
        openAnyFile(path);
}

void StudioWindow::openProjectDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open project", {}, "Tessera projects (*.json)");
    if (!path.isEmpty())
        openProject(path);
}

void StudioWindow::openTilingDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, "Open tiling report", {}, "Autotiler tiling (*.tiling.json)");
    if (!path.isEmpty())
        openTilingReport(path);
}

void StudioWindow::openScampDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open SCAMP-5 kernels", {}, "Kernels (*.json)");
    if (!path.isEmpty())
        openScampKernels(path);
}

bool StudioWindow::openScampKernels(const QString& path)
{
    auto* dock = findChild<QDockWidget*>("scamp");
    dock->show();
    dock->raise();
    if (!scampWorkbench_->openKernels(path)) {
        showError("Cannot open SCAMP-5 kernels", scampView_->message());
        return false;
    }
    if (!graph_) // nothing else to look at: give the trace room
        enlargeToolDock(dock, height() * 2 / 3);
    scampKernelsOpening_ = true;
    scampWorkbench_->run();
    return true;
}

bool StudioWindow::openTilingReport(const QString& path)
{
    QDockWidget* dock = raiseTilingDock();
    tilingReportOpening_ = true;
    if (!tilingPanel_->openTilingFile(path)) {
        tilingReportOpening_ = false;
        return false;
    }
    rememberRecent(path);
    if (!graph_) // nothing else to look at: give the tiles room
        enlargeToolDock(dock, height() / 2);
    statusLabel_->setText("Tiling report " + QFileInfo(path).fileName() +
                          ": drag the L1 budget to solve its kernels again");
    return true;
}

QDockWidget* StudioWindow::raiseTilingDock()
{
    auto* dock = findChild<QDockWidget*>("tiling");
    dock->show();
    dock->raise();
    return dock;
}

void StudioWindow::saveProjectDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, "Save project", {}, "Tessera projects (*.json)");
    if (!path.isEmpty())
        saveProject(path);
}

void StudioWindow::openProject(const QString& path)
{
    // Tiling reports are JSON too; the command line, drops and recent files all come here.
    if (path.endsWith(".tiling.json", Qt::CaseInsensitive)) {
        openTilingReport(path);
        return;
    }
    if (ScampWorkbench::isKernelsFile(path)) {
        openScampKernels(path);
        return;
    }
    try {
        const Project project = loadProject(path.toStdString());
        pendingL2_ = project.l2Budget > 0 ? std::optional<qint64>(project.l2Budget) : std::nullopt;
        setTarget(QString::fromStdString(project.target));
        applyTargetDefaults();
        if (project.l3Budget)
            l3Box_->setBytes(*project.l3Budget);
        if (project.l1Budget)
            l1Box_->setBytes(*project.l1Budget);
        if (project.flashBudget)
            flashBox_->setBytes(*project.flashBudget);
        projectOpening_ = true;
        projectPath_ = QFileInfo(path).absoluteFilePath();
        openModel(QString::fromStdString(project.modelPath));
    } catch (const std::exception& error) {
        showError("Cannot open project", QString::fromStdString(error.what()));
    }
}

bool StudioWindow::saveProject(const QString& path)
{
    if (modelPath_.isEmpty()) {
        showError("Cannot save project", "open a model first");
        return false;
    }
    Project project;
    project.modelPath = QFileInfo(modelPath_).absoluteFilePath().toStdString();
    project.target = target().toStdString();
    project.l2Budget = l2Budget();
    project.l3Budget = budgets().l3;
    project.l1Budget = budgets().l1;
    project.flashBudget = budgets().flash;
    try {
        tessera::saveProject(project, path.toStdString());
    } catch (const std::exception& error) {
        showError("Cannot save project", QString::fromStdString(error.what()));
        return false;
    }
    statusBar()->showMessage("saved " + path, 3000);
    projectPath_ = QFileInfo(path).absoluteFilePath();
    markModified(false);
    return true;
}

void StudioWindow::exportGapProjectDialog()
{
    if (!graph_) {
        showError("Export GAP project", "open a model first (File > Open model)");
        return;
    }
    const QString folder = views::ProjectFolderDialog::choose(this, "Folder for the GAP project (an existing folder, or a new name)");
    if (!folder.isEmpty())
        exportGapProject(folder);
}

void StudioWindow::exportStepTable()
{
    const QString path = QFileDialog::getSaveFileName(this, "Export step table", {}, "CSV (*.csv)");
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(stepModel_->toCsv().toUtf8()) < 0 || !file.commit())
        showError("Cannot export", path + ": " + file.errorString());
}

bool StudioWindow::exportGraphImage(const QString& path)
{
    return reportPicture("the graph", path, graphView_->exportImage(path));
}

bool StudioWindow::exportTimelineImage(const QString& path)
{
    return reportPicture("the memory timeline", path, timeline_->exportImage(path));
}

bool StudioWindow::reportPicture(const QString& what, const QString& path, const QString& problem)
{
    if (!problem.isEmpty()) {
        showError("Cannot export " + what, problem);
        return false;
    }
    statusBar()->showMessage("wrote " + what + " to " + path, 3000);
    return true;
}

bool StudioWindow::welcomeShown() const { return central_->currentWidget() == welcome_; }

void StudioWindow::openSample(const QString& name)
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/samples";
    const QString path = folder + "/" + name + ".onnx";
    statusLabel_->setText("Building the sample " + name + " ...");
    struct Written {
        QString error;
    };
    runInBackground<Written>(
        this,
        [name, folder, path] {
            Written written;
            try {
                if (!QDir().mkpath(folder))
                    throw Error(folder.toStdString() + ": cannot create the folder for samples");
                if (!QFileInfo::exists(path))  // exportOnnxFile writes it whole or not at all
                    exportOnnxFile(buildZooModel(name.toStdString()), path.toStdString());
            } catch (const std::exception& error) {
                written.error = QString::fromStdString(error.what());
            }
            return written;
        },
        [this, name, path](const Written& written) {
            if (!written.error.isEmpty())
                showError("Cannot build the sample " + name, written.error);
            else
                openModel(path);
        });
}

QStringList StudioWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void StudioWindow::rememberRecent(const QString& path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void StudioWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recentFiles();
    welcome_->setRecentFiles(files);
    for (const QString& file : files)
        recentMenu_->addAction(QFileInfo(file).fileName(), this, [this, file] { openAnyFile(file); })->setToolTip(file);
    recentMenu_->setEnabled(!files.isEmpty());
}

// Every menu action with a shortcut, so the list cannot miss one, then the keys the views take.
QStringList StudioWindow::shortcutList() const
{
    QStringList lines;
    std::function<void(const QMenu*)> collect = [&](const QMenu* menu) {
        for (const QAction* action : menu->actions()) {
            if (action->menu())
                collect(action->menu());
            else if (!action->shortcut().isEmpty())
                lines << QString("%1\t%2").arg(action->shortcut().toString(QKeySequence::NativeText),
                                              QString(action->text()).remove('&'));
        }
    };
    for (const QAction* action : menuBar()->actions())
        if (action->menu())
            collect(action->menu());
    lines << "Wheel\tzoom the graph (drag to pan)"
          << "Up / Down\tstep through the SCAMP-5 trace or the Steps table"
          << "Tab / Shift+Tab\tmove between the bar, the graph and the panels";
    return lines;
}

void StudioWindow::showShortcuts()
{
    QString html = "<table>";
    for (const QString& line : shortcutList()) {
        const QStringList parts = line.split('\t');
        html += QString("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(parts.value(0).toHtmlEscaped(), parts.value(1).toHtmlEscaped());
    }
    html += "</table><p>Drag the red L2 budget line in the memory timeline to re-plan; click a step there to "
            "select what it runs.</p>";
    auto* box = new QMessageBox(QMessageBox::Information, "Keyboard shortcuts", html, QMessageBox::Ok, this);
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

// Closing with budgets or a target changed since the project was opened or saved asks first.
void StudioWindow::closeEvent(QCloseEvent* event)
{
    if (!isWindowModified() || modelPath_.isEmpty()) {
        event->accept();
        return;
    }
    const auto answer = QMessageBox::question(
        this, "Unsaved changes",
        QString("The budgets or target of %1 changed since it was %2. Save the project before closing?")
            .arg(QFileInfo(projectPath_.isEmpty() ? modelPath_ : projectPath_).fileName(),
                 projectPath_.isEmpty() ? "opened" : "saved"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) {
        event->ignore();
        return;
    }
    if (answer == QMessageBox::Save) {
        const QString path = projectPath_.isEmpty()
                                 ? QFileDialog::getSaveFileName(this, "Save project", {}, "Tessera projects (*.json)")
                                 : projectPath_;
        if (path.isEmpty() || !saveProject(path)) {
            event->ignore();
            return;
        }
    }
    event->accept();
}

} // namespace tessera::studio
