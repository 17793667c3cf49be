#pragma once
// The folder an exported project goes to, new or existing. Qt's directory dialog refuses a name
// that does not exist yet ("Directory not found"), so a user could not type the name of the
// project folder to create; this one creates the typed folder when it is accepted.
#include <QFileDialog>

namespace tessera::views {

class ProjectFolderDialog : public QFileDialog {
    Q_OBJECT

public:
    ProjectFolderDialog(QWidget* parent, const QString& title);

    // The chosen folder (created if it was new), or empty when cancelled.
    static QString choose(QWidget* parent, const QString& title);

    // The folder the accepted name stands for, or empty before acceptance.
    QString folder() const { return folder_; }
    // Why the last accept() was refused (the folder could not be created), or empty.
    QString problem() const { return problem_; }

public slots:
    void accept() override;

private:
    QString folder_;
    QString problem_;
};

} // namespace tessera::views
