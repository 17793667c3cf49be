#include "welcome_page.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

constexpr int kPathRole = Qt::UserRole + 1;

QListWidget* list(QWidget* parent)
{
    auto* widget = new QListWidget(parent);
    widget->setMinimumWidth(320);
    widget->setAlternatingRowColors(true);
    return widget;
}

} // namespace

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 24, 24, 24);
    auto* title = new QLabel("<h2>Tessera Studio</h2><p>Open an ONNX model to see its graph, where each tensor lives "
                             "on the chip, and what a budget change does. Drop a file here, or:</p>",
                             this);
    title->setWordWrap(true);
    layout->addWidget(title);
    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    problem_->setStyleSheet("QLabel { color: #b00020; }");
    problem_->setVisible(false);
    layout->addWidget(problem_);
    auto* buttons = new QHBoxLayout;
    auto* open = new QPushButton("Open model... (Ctrl+O)", this);
    auto* project = new QPushButton("Open project... (Ctrl+Shift+O)", this);
    buttons->addWidget(open);
    buttons->addWidget(project);
    buttons->addStretch();
    layout->addLayout(buttons);
    auto* lists = new QGridLayout;
    lists->addWidget(new QLabel("<b>Recent files</b>", this), 0, 0);
    lists->addWidget(new QLabel("<b>Sample networks</b> (built in, random weights)", this), 0, 1);
    recent_ = list(this);
    samples_ = list(this);
    lists->addWidget(recent_, 1, 0);
    lists->addWidget(samples_, 1, 1);
    layout->addLayout(lists, 1);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openDialogRequested);
    connect(project, &QPushButton::clicked, this, &WelcomePage::projectDialogRequested);
    connect(recent_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit fileRequested(item->data(kPathRole).toString()); });
    connect(samples_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit sampleRequested(item->data(kPathRole).toString()); });
}

void WelcomePage::setRecentFiles(const QStringList& paths)
{
    recent_->clear();
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(QFileInfo(path).fileName() + "  —  " + QFileInfo(path).absolutePath(), recent_);
        item->setData(kPathRole, path);
        item->setToolTip(path);
    }
    if (paths.isEmpty()) {
        auto* item = new QListWidgetItem("(none yet)", recent_);
        item->setFlags(Qt::NoItemFlags);
    }
}

void WelcomePage::setSamples(const QStringList& names, const QStringList& descriptions)
{
    samples_->clear();
    for (int k = 0; k < names.size(); ++k) {
        auto* item = new QListWidgetItem(names[k] + "  —  " + descriptions.value(k), samples_);
        item->setData(kPathRole, names[k]);
        item->setToolTip(descriptions.value(k));
    }
}

void WelcomePage::setProblem(const QString& message)
{
    problem_->setText(message);
    problem_->setVisible(!message.isEmpty());
}

QString WelcomePage::problem() const { return problem_->isHidden() ? QString() : problem_->text(); }

} // namespace tessera::views
