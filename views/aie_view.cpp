#include "aie_view.h"

#include "aie/aie_report.h"

#include <QColor>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tessera::views {

// The banks of one tile with the selected layer's buffers: input ping/pong, then output
// ping/pong, each starting on a bank boundary; the weights live in neighbouring tiles.
class TileBanksWidget : public QWidget {
public:
    using QWidget::QWidget;

    void setLayer(const aie::AieArchitecture& arch, const aie::LayerPlan* layer, int64_t elementBytes)
    {
        arch_ = arch;
        layer_ = layer ? std::optional<aie::LayerPlan>(*layer) : std::nullopt;
        elementBytes_ = elementBytes;
        update();
    }

protected:
    QSize sizeHint() const override { return {480, 150}; }

    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        const QRectF area = rect().adjusted(8, 24, -8, -24);
        const int banks = std::max(arch_.banks, 1);
        const double bankWidth = area.width() / banks;
        painter.setPen(palette().text().color());
        if (!layer_) {
            painter.drawText(rect(), Qt::AlignCenter, "Select a layer to see its tile memory");
            return;
        }
        painter.drawText(QRectF(8, 2, width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter,
                         QString("%1: %2 banks of %3 KB").arg(QString::fromStdString(layer_->layer.name)).arg(banks)
                             .arg(arch_.bankBytes() / 1024));
        for (int b = 0; b < banks; ++b)
            painter.drawRect(QRectF(area.left() + b * bankWidth, area.top(), bankWidth, area.height()));
        struct Piece { QString name; int64_t bytes; QColor color; };
        const int64_t in = layer_->kernelInputElements * elementBytes_;
        const int64_t out = layer_->kernelOutputElements * elementBytes_;
        const std::vector<Piece> pieces{{"in ping", in, QColor(0x4a, 0x86, 0xc8)}, {"in pong", in, QColor(0x4a, 0x86, 0xc8)},
                                        {"out ping", out, QColor(0x5a, 0xa8, 0x6a)}, {"out pong", out, QColor(0x5a, 0xa8, 0x6a)}};
        const int64_t bankBytes = std::max<int64_t>(arch_.bankBytes(), 1);
        int64_t cursor = 0; // in bytes; each buffer starts on a bank boundary
        for (const Piece& piece : pieces) {
            const double x = area.left() + double(cursor) / double(bankBytes) * bankWidth;
            const double w = double(piece.bytes) / double(bankBytes) * bankWidth;
            const QRectF box(x, area.top() + 4, std::max(w, 2.0), area.height() - 8);
            const bool overflows = cursor + piece.bytes > arch_.tileBytes;
            painter.fillRect(box, overflows ? QColor(0xc0, 0x30, 0x30) : piece.color);
            painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap,
                             QString("%1\n%2 KB").arg(piece.name).arg(double(piece.bytes) / 1024.0, 0, 'f', 1));
            cursor += (piece.bytes + bankBytes - 1) / bankBytes * bankBytes;
        }
        painter.drawText(QRectF(8, height() - 22, width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter,
                         layer_->weightBytes ? QString("weights %1 KB single-buffered in %2 neighbouring tile(s)")
                                                   .arg(double(layer_->weightBytes) / 1024.0, 0, 'f', 1)
                                                   .arg(layer_->weightTiles)
                                             : QString("no weights"));
    }

private:
    aie::AieArchitecture arch_;
    std::optional<aie::LayerPlan> layer_;
    int64_t elementBytes_ = 2;
};

AieView::AieView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel("Architecture", this));
    archBox_ = new QComboBox(this);
    for (const std::string& name : aie::aieArchitectureNames())
        archBox_->addItem(QString::fromStdString(name));
    archBox_->setCurrentText("aie-ml");
    bar->addWidget(archBox_);
    bar->addWidget(new QLabel("Tile memory", this));
    tileBox_ = new QSpinBox(this);
    tileBox_->setSuffix(" KB");
    tileBox_->setRange(4, 1024);
    tileBox_->setSingleStep(8);
    tileBox_->setValue(int(aie::aieArchitecture("aie-ml").tileBytes / 1024));
    bar->addWidget(tileBox_);
    bar->addStretch(1);
    layout->addLayout(bar);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setVisible(false);
    layout->addWidget(message_);
    table_ = new QTableWidget(this);
    table_->setColumnCount(8);
    table_->setHorizontalHeaderLabels({"Layer", "Input", "Output", "Input KB", "Output KB", "Kernel inv.", "Memory tile inv.", "Note"});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(table_, 1);
    banks_ = new TileBanksWidget(this);
    layout->addWidget(banks_);
    connect(archBox_, &QComboBox::currentTextChanged, this, &AieView::onArchitectureBox);
    connect(tileBox_, &QSpinBox::valueChanged, this, &AieView::architectureChanged);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        selectLayer(row);
        if (plan_ && row >= 0 && row < int(plan_->layers.size()))
            emit layerSelected(int(plan_->layers[size_t(row)].layer.node));
    });
}

void AieView::onArchitectureBox()
{
    tileBox_->blockSignals(true);
    tileBox_->setValue(int(aie::aieArchitecture(archBox_->currentText().toStdString()).tileBytes / 1024));
    tileBox_->blockSignals(false);
    emit architectureChanged();
}

aie::AieArchitecture AieView::architecture() const
{
    aie::AieArchitecture arch = aie::aieArchitecture(archBox_->currentText().toStdString());
    arch.tileBytes = int64_t(tileBox_->value()) * 1024;
    return arch;
}

void AieView::setArchitecture(const QString& name) { archBox_->setCurrentText(name); }

void AieView::setTileKB(int kb) { tileBox_->setValue(kb); }

void AieView::showPlan(const aie::AiePlan& plan)
{
    plan_ = plan;
    table_->setRowCount(int(plan.layers.size()));
    QString firstRefusal;
    for (int r = 0; r < int(plan.layers.size()); ++r) {
        const aie::LayerPlan& p = plan.layers[size_t(r)];
        const bool refused = !p.refusal.empty();
        QStringList cells{QString::fromStdString(p.layer.name), QString::fromStdString(p.layer.inputShapeText()),
                          QString::fromStdString(p.layer.outputShapeText())};
        if (refused) {
            // The layer keeps its row, marked, with the reason where the plan's figures would be.
            cells << "-" << "-" << "-" << "-" << "does not fit: " + QString::fromStdString(p.refusal);
            if (firstRefusal.isEmpty())
                firstRefusal = QString::fromStdString(p.refusal);
        } else {
            cells << QString::fromStdString(aie::formatKB(p.inputKB)) << QString::fromStdString(aie::formatKB(p.outputKB))
                  << QString::number(p.kernelInvocations)
                  << (p.memtileInvocations ? QString::number(*p.memtileInvocations) : "NA") << QString::fromStdString(p.note);
        }
        std::string tip = refused ? p.refusal + "\n" : "";
        for (const std::string& reason : p.reasons)
            tip += "- " + reason + "\n";
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(QString::fromStdString(tip));
            if (refused) {
                item->setBackground(QColor(255, 225, 225));
                item->setForeground(QColor(150, 0, 0));
            }
            table_->setItem(r, c, item);
        }
    }
    const size_t refusedCount = plan.refusedLayers();
    message_->setText(refusedCount == 0 ? QString()
                                        : QString("%1 of %2 layers do not fit a %3 KB tile (marked below). %4")
                                              .arg(refusedCount)
                                              .arg(plan.layers.size())
                                              .arg(plan.arch.tileBytes / 1024)
                                              .arg(firstRefusal));
    message_->setVisible(refusedCount > 0);
    table_->resizeColumnsToContents();
    selectLayer(table_->currentRow() >= 0 ? table_->currentRow() : 0);
}

bool AieView::isRefused(int row) const
{
    return plan_ && row >= 0 && row < int(plan_->layers.size()) && !plan_->layers[size_t(row)].refusal.empty();
}

void AieView::showProblem(const QString& message)
{
    plan_.reset();
    table_->setRowCount(0);
    message_->setText(message);
    message_->setVisible(true);
    banks_->setLayer(architecture(), nullptr, 2);
}

void AieView::clear()
{
    plan_.reset();
    table_->setRowCount(0);
    message_->setVisible(false);
    banks_->setLayer(architecture(), nullptr, 2);
}

int AieView::rowCount() const { return table_->rowCount(); }

void AieView::selectRow(int row) { table_->setCurrentCell(row, 0); }

QString AieView::cell(int row, int column) const
{
    const QTableWidgetItem* item = table_->item(row, column);
    return item ? item->text() : QString();
}

QString AieView::message() const { return message_->isVisible() ? message_->text() : QString(); }

void AieView::selectLayer(int row)
{
    if (!plan_ || row < 0 || row >= int(plan_->layers.size()) || isRefused(row)) {
        banks_->setLayer(architecture(), nullptr, 2);
        return;
    }
    banks_->setLayer(plan_->arch, &plan_->layers[size_t(row)], plan_->options.elementBytes);
}

} // namespace tessera::views
