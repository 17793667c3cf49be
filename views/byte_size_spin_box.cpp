#include "byte_size_spin_box.h"

#include <algorithm>

namespace tessera::views {

namespace {

constexpr qint64 kKiB = 1024;

} // namespace

ByteSizeSpinBox::ByteSizeSpinBox(qint64 granularity, qint64 smallest, qint64 largest, QWidget* parent)
    : QSpinBox(parent), granularity_(std::max<qint64>(1, granularity))
{
    setRange(int(std::max<qint64>(1, smallest / granularity_)), int(std::min<qint64>(largest / granularity_, INT32_MAX)));
    // One step is a KiB: the unit the budgets are thought in.
    setSingleStep(int(std::max<qint64>(1, kKiB / granularity_)));
    setAccelerated(true);
    setKeyboardTracking(false);  // typing "64" on the way to "640 KiB" plans nothing
    connect(this, &QSpinBox::valueChanged, this, [this](int value) { emit bytesChanged(qint64(value) * granularity_); });
}

void ByteSizeSpinBox::setBytes(qint64 bytes)
{
    setValue(int(std::clamp<qint64>((bytes + granularity_ / 2) / granularity_, minimum(), maximum())));
}

// Room for the longest size a budget usually shows, whatever the range's ends are.
QSize ByteSizeSpinBox::sizeHint() const
{
    QSize size = QSpinBox::sizeHint();
    size.setWidth(std::max(size.width(), fontMetrics().horizontalAdvance("16 384 KiB") + 40));
    return size;
}

QSize ByteSizeSpinBox::minimumSizeHint() const { return sizeHint(); }

QString ByteSizeSpinBox::textFromValue(int value) const { return formatByteSize(qint64(value) * granularity_); }

int ByteSizeSpinBox::valueFromText(const QString& text) const
{
    const std::optional<qint64> bytes = parseByteSize(text);
    if (!bytes)
        return value();
    return int(std::clamp<qint64>((*bytes + granularity_ / 2) / granularity_, minimum(), maximum()));
}

QValidator::State ByteSizeSpinBox::validate(QString& text, int&) const
{
    if (parseByteSize(text))
        return QValidator::Acceptable;
    // Digits with a unit being typed ("64 K", "1.") may still become a size.
    static const QRegularExpression partial(R"(^\s*[0-9 ]*\.?[0-9]*\s*[kKmMgG]?[iI]?[bB]?\s*$)");
    return partial.match(text).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

} // namespace tessera::views
