#pragma once
// What the studio shows where the graph goes while no model is open (at start, or after a file
// that could not be opened): how to open something, the files opened recently, and the sample
// networks of the zoo, each one click away.
#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;

namespace tessera::views {

class WelcomePage : public QWidget {
    Q_OBJECT

public:
    explicit WelcomePage(QWidget* parent = nullptr);

    void setRecentFiles(const QStringList& paths);
    // Sample networks by name, with a line each ("MobileNet v1 1.0/224: ...").
    void setSamples(const QStringList& names, const QStringList& descriptions);
    // A problem to show above the rest (the file that did not open), or none.
    void setProblem(const QString& message);
    QString problem() const;

    QListWidget* recentList() const { return recent_; }
    QListWidget* sampleList() const { return samples_; }

signals:
    void openDialogRequested();
    void projectDialogRequested();
    void fileRequested(const QString& path);
    void sampleRequested(const QString& name);

private:
    QLabel* problem_ = nullptr;
    QListWidget* recent_ = nullptr;
    QListWidget* samples_ = nullptr;
};

} // namespace tessera::views
