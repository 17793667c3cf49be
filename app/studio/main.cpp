// tessera-studio: opens the model or project given on the command line, if any.
// With --screenshot FILE it saves a picture of the window once the model and its plan are shown,
// then exits (the README's screenshots are taken this way, offscreen); --select NODE selects a node,
// --compare SIZE pins the first plan as A and shows the plan at L2 SIZE beside it, --sweep sweeps
// the L2 budget (the picture waits for the comparison or the sweep); --size WxH sets the window's size.
#include "byte_sizes.h"
#include "studio_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("Tessera Studio");
    QApplication::setOrganizationName("Tessera");
    QCommandLineParser parser;
    parser.setApplicationDescription("Tessera design studio: see a model's graph and memory, drag budgets");
    parser.addHelpOption();
    parser.addPositionalArgument("file", "ONNX model, Tessera project (.json) or NVDLA loadable (.nvdla) to open");
    const QCommandLineOption screenshot("screenshot", "Save a PNG of the window once the model is shown, then exit",
                                        "file");
    parser.addOption(screenshot);
    const QCommandLineOption select("select", "Select the node of this name once the model is shown", "node");
    parser.addOption(select);
    const QCommandLineOption compare("compare", "Pin the first plan as A, then plan at this L2 budget (e.g. 128K) beside it",
                                     "size");
    parser.addOption(compare);
    const QCommandLineOption sweep("sweep", "Sweep the L2 budget once the model's plan is shown");
    parser.addOption(sweep);
    const QCommandLineOption size("size", "Window size in pixels, e.g. 1280x720 (the default is 1400x900)", "WxH");
    parser.addOption(size);
    parser.process(app);
    tessera::studio::StudioWindow window;
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split('x');
        bool wideOk = false, highOk = false;
        const int wide = parts.size() == 2 ? parts[0].toInt(&wideOk) : 0;
        const int high = parts.size() == 2 ? parts[1].toInt(&highOk) : 0;
        if (!wideOk || !highOk || wide < 640 || high < 480 || wide > 7680 || high > 4320) {
            std::fprintf(stderr, "error: --size: '%s' is not a window size from 640x480 to 7680x4320 (e.g. 1280x720)\n",
                         qPrintable(parser.value(size)));
            return 2;
        }
        window.resize(wide, high);
    }
    window.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(select))
        QObject::connect(&window, &tessera::studio::StudioWindow::planShown, &window, [&window, name = parser.value(select)] {
            if (!window.selectNodeNamed(name))
                std::fprintf(stderr, "warning: --select: the model has no node '%s'\n", qPrintable(name));
        });
    std::optional<qint64> compareBudget;
    if (parser.isSet(compare)) {
        compareBudget = tessera::views::parseByteSize(parser.value(compare));
        if (!compareBudget) {
            std::fprintf(stderr, "error: --compare: '%s' is not a size (e.g. 128K, 96 KiB, 131072)\n",
                         qPrintable(parser.value(compare)));
            return 2;
        }
    }
    // What the screenshot waits for: the first plan, or the comparison or sweep asked for after it.
    auto firstPlan = std::make_shared<bool>(true);
    QObject::connect(&window, &tessera::studio::StudioWindow::planShown, &window, [&, firstPlan] {
        if (!std::exchange(*firstPlan, false))
            return;
        if (compareBudget) {
            window.pinPlan();
            window.setL2Budget(*compareBudget);
        }
        if (parser.isSet(sweep))
            window.sweepNow();
    });
    if (parser.isSet(screenshot)) {
        if (files.isEmpty()) {
            std::fprintf(stderr, "error: --screenshot needs a model or project to open\n");
            return 2;
        }
        const QString target = parser.value(screenshot);
        auto save = [&window, target] {
            // Let the queued redraws land before grabbing.
            QTimer::singleShot(200, &window, [&window, target] {
                const bool saved = window.grab().save(target);
                std::fprintf(saved ? stdout : stderr, saved ? "saved %s\n" : "error: cannot write %s\n", qPrintable(target));
                QApplication::exit(saved ? 0 : 1);
            });
        };
        if (parser.isSet(sweep)) {
            QObject::connect(&window, &tessera::studio::StudioWindow::sweepShown, &window, save);
        } else {
            auto plans = std::make_shared<int>(0);
            QObject::connect(&window, &tessera::studio::StudioWindow::planShown, &window, [save, plans, compareBudget] {
                if (++*plans == (compareBudget ? 2 : 1))
                    save();
            });
            QObject::connect(&window, &tessera::studio::StudioWindow::loadableShown, &window, save);
        }
        QObject::connect(&window, &tessera::studio::StudioWindow::errorShown, &window, [](const QString& message) {
            std::fprintf(stderr, "error: %s\n", qPrintable(message));
            QApplication::exit(1);
        });
    }
    if (!files.isEmpty())
        window.openAnyFile(files.front());
    return app.exec();
}
