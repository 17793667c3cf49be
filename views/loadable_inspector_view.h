#pragma once
// The NVDLA loadable inspector: a .nvdla file as a tree (every list, task and descriptor field
// decoded, as `tessera nvdla inspect --json` prints it), the dependency graph of its operations
// drawn by the graph view (each unit its colour), and the validator's findings, errors first.
#include <QWidget>

class QLabel;
class QListWidget;
class QTreeWidget;

namespace tessera::views {

class GraphView;

class LoadableInspectorView : public QWidget {
    Q_OBJECT

public:
    explicit LoadableInspectorView(QWidget* parent = nullptr);

    // Reads, decodes and checks `path`; false (message() says why, and what was shown stays) when
    // the file is not a loadable Tessera can read.
    bool openFile(const QString& path);
    QString message() const { return message_; }
    QString fileName() const { return fileName_; }

    QTreeWidget* tree() const { return tree_; }
    GraphView* operations() const { return operations_; }
    QListWidget* findings() const { return findings_; }
    QString summary() const;

private:
    QLabel* summary_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    GraphView* operations_ = nullptr;
    QListWidget* findings_ = nullptr;
    QString message_;
    QString fileName_;
};

} // namespace tessera::views
