#include "image_export.h"

#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>

namespace tessera::views {

namespace {

constexpr int kLargestPngSide = 16384;

} // namespace

QString writeImage(const QString& path, QSize size, const QString& title, const std::function<void(QPainter&)>& paint)
{
    const bool svg = path.endsWith(".svg", Qt::CaseInsensitive);
    if (!svg && !path.endsWith(".png", Qt::CaseInsensitive))
        return path + ": give the file a .png or .svg name (the picture's format follows it)";
    if (size.isEmpty())
        return "there is nothing to draw yet (open a model first)";
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return path + ": " + file.errorString();
    if (svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title);
        generator.setDescription("Tessera Studio");
        QPainter painter(&generator);
        paint(painter);
    } else {
        const double scale = std::min(2.0, double(kLargestPngSide) / double(std::max(size.width(), size.height())));
        QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(scale, scale);
        paint(painter);
        painter.end();
        if (!image.save(&file, "PNG"))
            return path + ": the picture could not be encoded";
    }
    if (!file.commit())
        return path + ": " + file.errorString();
    return {};
}

} // namespace tessera::views
