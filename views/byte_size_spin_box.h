#pragma once
// A spin box for a memory size, shown and typed as byte_sizes.h writes and reads sizes. The value
// is kept in units of `granularity` bytes, so sizes up to 2^31 granules fit (1 B granules for L1
// and L2, 1 KiB granules for the GiB-sized L3 and flash).
#include "byte_sizes.h"

#include <QSpinBox>

namespace tessera::views {

class ByteSizeSpinBox : public QSpinBox {
    Q_OBJECT

public:
    ByteSizeSpinBox(qint64 granularity, qint64 smallest, qint64 largest, QWidget* parent = nullptr);

    qint64 bytes() const { return qint64(value()) * granularity_; }
    // Rounded to the granularity and clamped to the range.
    void setBytes(qint64 bytes);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void bytesChanged(qint64 bytes);

protected:
    QString textFromValue(int value) const override;
    int valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& position) const override;

private:
    qint64 granularity_;
};

} // namespace tessera::views
