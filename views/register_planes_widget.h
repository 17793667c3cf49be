#pragma once
// The register planes of a SCAMP-5 program at one step of its run on an image: one grey picture
// per register (its values mapped from the plane's lowest to its highest value, a range that
// always includes 0), the register the step wrote framed, the range written under each.
#include "scamp/program_trace.h"

#include <QWidget>

#include <memory>

namespace tessera::views {

class RegisterPlanesWidget : public QWidget {
    Q_OBJECT

public:
    using QWidget::QWidget;

    void setTrace(std::shared_ptr<const scamp::ProgramTrace> trace);
    void setStep(int step);
    int step() const { return step_; }
    // The plane drawn for a register at the current step; nullptr when there is none.
    const scamp::Plane* shownPlane(const QString& registerName) const;
    // The picture drawn for a plane: grey levels from the lowest value (black) to the highest (white).
    static QImage planeImage(const scamp::Plane& plane);

protected:
    QSize sizeHint() const override { return {360, 260}; }
    QSize minimumSizeHint() const override { return {160, 120}; }
    void paintEvent(QPaintEvent* event) override;

private:
    std::shared_ptr<const scamp::ProgramTrace> trace_;
    int step_ = 0;
};

} // namespace tessera::views
