#include "byte_sizes.h"

#include <QRegularExpression>

#include <cmath>

namespace tessera::views {

namespace {

constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = 1024 * kKiB;
constexpr qint64 kGiB = 1024 * kMiB;

// Thousands grouped by a space ("51 200").
QString grouped(qint64 value)
{
    QString digits = QString::number(std::abs(value));
    for (int at = digits.size() - 3; at > 0; at -= 3)
        digits.insert(at, ' ');
    return value < 0 ? "-" + digits : digits;
}

} // namespace

QString exactBytes(qint64 bytes) { return grouped(bytes) + " B"; }

QString formatByteSize(qint64 bytes)
{
    if (bytes != 0 && bytes % kGiB == 0)
        return grouped(bytes / kGiB) + " GiB";
    if (bytes != 0 && bytes % kMiB == 0)
        return grouped(bytes / kMiB) + " MiB";
    if (bytes != 0 && bytes % kKiB == 0)
        return grouped(bytes / kKiB) + " KiB";
    return exactBytes(bytes);
}

std::optional<qint64> parseByteSize(const QString& text)
{
    static const QRegularExpression pattern(R"(^\s*([0-9][0-9 ]*(?:\.[0-9]*)?)\s*([kKmMgG]?)(?:i?[bB])?\s*$)");
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double number = QString(match.captured(1)).remove(' ').toDouble(&ok);
    if (!ok)
        return std::nullopt;
    const QChar unit = match.captured(2).isEmpty() ? QChar('b') : match.captured(2).at(0).toLower();
    const double scale = unit == 'g' ? double(kGiB) : unit == 'm' ? double(kMiB) : unit == 'k' ? double(kKiB) : 1.0;
    const double bytes = std::round(number * scale);
    if (!std::isfinite(bytes) || bytes > 9.0e18)
        return std::nullopt;
    return qint64(bytes);
}

} // namespace tessera::views
