#pragma once
// Pictures of a view written to a file: PNG (at twice the size, for print and slides) or SVG
// (vector), chosen by the file's extension; written whole or not at all.
#include <QString>
#include <QSize>

#include <functional>

class QPainter;

namespace tessera::views {

// Calls `paint` to draw a `size` picture and writes it to `path` (.png or .svg); the error in the
// user's words, or an empty string.
QString writeImage(const QString& path, QSize size, const QString& title, const std::function<void(QPainter&)>& paint);

} // namespace tessera::views
