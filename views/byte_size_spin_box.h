#pragma once
// A spin box for a memory size. Every budget of the studio shows its size one way: whole MiB as
// "8 MiB", whole KiB as "448 KiB", anything else in bytes ("22 345 B"); the user may type a number
// with B, K/KB/KiB, M/MB/MiB or G/GB/GiB (powers of 1024; a bare number is in bytes). The value is
// kept in units of `granularity` bytes, so sizes up to 2^31 granules fit (1 B granules for L1 and
// L2, 1 KiB granules for the GiB-sized L3 and flash).
#include <QSpinBox>

#include <optional>

namespace tessera::views {

// "8 MiB", "448 KiB", "22 345 B".
QString formatByteSize(qint64 bytes);
// The inverse of formatByteSize, also taking "64K", "1.5 MiB", "2000"; nullopt when not a size.
std::optional<qint64> parseByteSize(const QString& text);

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
