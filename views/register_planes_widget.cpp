#include "register_planes_widget.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tessera::views {

void RegisterPlanesWidget::setTrace(std::shared_ptr<const scamp::ProgramTrace> trace)
{
    trace_ = std::move(trace);
    step_ = 0;
    update();
}

void RegisterPlanesWidget::setStep(int step)
{
    step_ = trace_ && !trace_->planes.empty() ? std::clamp(step, 0, int(trace_->planes.size()) - 1) : 0;
    update();
}

const scamp::Plane* RegisterPlanesWidget::shownPlane(const QString& registerName) const
{
    if (!trace_ || trace_->planes.empty())
        return nullptr;
    const int r = trace_->registerIndex(registerName.toStdString());
    return r < 0 ? nullptr : &trace_->planes[size_t(step_)][size_t(r)];
}

QImage RegisterPlanesWidget::planeImage(const scamp::Plane& plane)
{
    QImage image(plane.size, plane.size, QImage::Format_Grayscale8);
    if (plane.size == 0)
        return image;
    const auto [lowest, highest] = std::minmax_element(plane.values.begin(), plane.values.end());
    const double low = std::min(*lowest, 0.0);
    const double span = std::max(*highest - low, 1e-9);
    for (int y = 0; y < plane.size; ++y) {
        uchar* line = image.scanLine(plane.size - 1 - y); // y grows northwards, rows go down
        for (int x = 0; x < plane.size; ++x)
            line[x] = uchar(std::lround(255.0 * (plane.at(x, y) - low) / span));
    }
    return image;
}

void RegisterPlanesWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setPen(palette().text().color());
    if (!trace_ || trace_->planes.empty()) {
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, "Run or open a program to step it on an image");
        return;
    }
    const size_t count = trace_->registers.size();
    const int columns = std::max(1, int(std::ceil(std::sqrt(double(count) * width() / std::max(height(), 1)))));
    const int rows = int((count + size_t(columns) - 1) / size_t(columns));
    const int cellWidth = width() / columns;
    const int cellHeight = height() / std::max(rows, 1);
    const int label = fontMetrics().height() + 2;
    const scamp::Instruction* instruction =
        step_ > 0 && step_ <= int(trace_->instructions.size()) ? &trace_->instructions[size_t(step_ - 1)] : nullptr;
    for (size_t r = 0; r < count; ++r) {
        const QRect cell(int(r % size_t(columns)) * cellWidth, int(r / size_t(columns)) * cellHeight, cellWidth, cellHeight);
        const scamp::Plane& plane = trace_->planes[size_t(step_)][r];
        const bool hasValue = trace_->goals.size() > size_t(step_) && trace_->goals[size_t(step_)][r].has_value();
        const int side = std::max(8, std::min(cell.width() - 8, cell.height() - 2 * label - 4));
        const QRect picture(cell.center().x() - side / 2, cell.top() + label, side, side);
        const QString name = QString::fromStdString(trace_->registers[r]);
        QFont font = painter.font();
        const bool written = instruction && instruction->dest == trace_->registers[r];
        font.setBold(written);
        painter.setFont(font);
        painter.drawText(QRect(cell.left(), cell.top(), cell.width(), label), Qt::AlignCenter, name);
        if (hasValue) {
            painter.drawImage(picture, planeImage(plane));
            const auto [lowest, highest] = std::minmax_element(plane.values.begin(), plane.values.end());
            painter.drawText(QRect(cell.left(), picture.bottom() + 2, cell.width(), label), Qt::AlignCenter,
                             QString("%1 \u2026 %2").arg(*lowest, 0, 'g', 4).arg(*highest, 0, 'g', 4));
        } else {
            painter.fillRect(picture, QBrush(palette().mid().color(), Qt::BDiagPattern));
            painter.drawText(picture, Qt::AlignCenter, "no value");
        }
        if (written) {
            painter.setPen(QPen(palette().highlight().color(), 3));
            painter.drawRect(picture.adjusted(-2, -2, 1, 1));
            painter.setPen(palette().text().color());
        }
    }
}

} // namespace tessera::views
