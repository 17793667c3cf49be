// tessera-studio: opens the model or project given on the command line, if any.
#include "studio_window.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("Tessera Studio");
    QApplication::setOrganizationName("Tessera");
    QCommandLineParser parser;
    parser.setApplicationDescription("Tessera design studio: see a model's graph and memory, drag budgets");
    parser.addHelpOption();
    parser.addPositionalArgument("file", "ONNX model or Tessera project (.json) to open");
    parser.process(app);
    tessera::studio::StudioWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        if (files.front().endsWith(".json"))
            window.openProject(files.front());
        else
            window.openModel(files.front());
    }
    return app.exec();
}
