#include "project_folder_dialog.h"

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>

namespace tessera::views {

ProjectFolderDialog::ProjectFolderDialog(QWidget* parent, const QString& title) : QFileDialog(parent, title)
{
    // Qt's own dialog: the platform's would not call accept() below.
    setOption(QFileDialog::DontUseNativeDialog);
    setFileMode(QFileDialog::Directory);
    setOption(QFileDialog::ShowDirsOnly);
    setAcceptMode(QFileDialog::AcceptSave);
    setLabelText(QFileDialog::FileName, "Folder");
    setLabelText(QFileDialog::Accept, "Export");
}

QString ProjectFolderDialog::choose(QWidget* parent, const QString& title)
{
    ProjectFolderDialog dialog(parent, title);
    return dialog.exec() == QDialog::Accepted ? dialog.folder() : QString();
}

void ProjectFolderDialog::accept()
{
    // The typed name, relative to the folder shown; else the selection.
    QString name;
    if (auto* edit = findChild<QLineEdit*>("fileNameEdit"))
        name = edit->text().trimmed();
    QString path = name.isEmpty() ? selectedFiles().value(0) : QDir(directory()).absoluteFilePath(name);
    if (path.isEmpty())
        path = directory().absolutePath();
    problem_.clear();
    const QFileInfo info(path);
    if (info.exists() && !info.isDir()) {
        problem_ = path + " is a file, not a folder: choose another name";
    } else if (!info.exists() && !QDir().mkpath(path)) {
        problem_ = path + ": cannot create this folder (check the permissions of the folder above it)";
    }
    if (!problem_.isEmpty()) {
        if (isVisible())
            QMessageBox::warning(this, windowTitle(), problem_);
        return;
    }
    folder_ = QDir::cleanPath(info.absoluteFilePath());
    QDialog::accept();
}

} // namespace tessera::views
