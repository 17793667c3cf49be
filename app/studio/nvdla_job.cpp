#include "nvdla_job.h"

#include "nvdla/compile/legalization.h"
#include "nvdla/compile/unit_mapping.h"
#include "nvdla_project/nvdla_project_writer.h"

#include <chrono>

namespace tessera::studio {

std::vector<NvdlaTargetEntry> nvdlaTargets()
{
    std::vector<NvdlaTargetEntry> entries;
    for (const target::NvdlaConfig& config : target::nvdlaConfigs())
        for (target::NvdlaPrecision precision : config.precisions) {
            const QString name = QString::fromStdString(config.name);
            const QString precisionName = QString(target::nvdlaPrecisionName(precision));
            entries.push_back({"nvdla:" + name + ":" + precisionName, "NVDLA " + name + " " + precisionName.toUpper()});
        }
    return entries;
}

std::optional<NvdlaTarget> parseNvdlaTarget(const QString& target)
{
    const QStringList parts = target.split(':');
    if (parts.size() != 3 || parts[0] != "nvdla")
        return std::nullopt;
    try {
        NvdlaTarget result;
        result.config = target::nvdlaConfig(parts[1].toStdString()).name;
        result.precision = target::parseNvdlaPrecision(parts[2].toStdString());
        return result;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

NvdlaOutcome nvdlaJob(std::shared_ptr<const Session> session, const NvdlaTarget& target)
{
    NvdlaOutcome result;
    const auto start = std::chrono::steady_clock::now();
    try {
        // The report first, as `tessera nvdla check` makes it: it exists even when nodes do not map.
        const target::NvdlaConfig& config = target::nvdlaConfig(target.config);
        Graph legalized = session->graph();
        nvdla::LegalizationLog log;
        nvdla::legalize(legalized, config, log);
        result.mapping = nvdla::mapToUnits(legalized, config, target.precision, log);
        result.modelNodes = nvdla::mapModelNodes(session->graph(), *result.mapping);
        if (!result.mapping->ok()) {
            result.error = QString::fromStdString(result.mapping->problems());
        } else {
            nvdla::NvdlaCompileOptions options;
            options.config = target.config;
            options.precision = target.precision;
            result.compilation =
                std::make_shared<const nvdla::NvdlaCompilation>(nvdla::compileForNvdla(session->graph(), options));
        }
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

NvdlaExportOutcome exportNvdlaProjectJob(std::shared_ptr<const nvdla::NvdlaCompilation> compilation,
                                         const QString& folder)
{
    NvdlaExportOutcome result;
    result.folder = folder;
    try {
        nvdla::exportNvdlaProject(*compilation, folder.toStdString());
        result.summary = QString("NVDLA project for %1 %2 in %3: model.nvdla (%4 bytes), the sample input and its "
                                 "expected output, run.sh")
                             .arg(QString::fromStdString(compilation->config),
                                  QString(target::nvdlaPrecisionName(compilation->precision)).toUpper(), folder)
                             .arg(qint64(compilation->bytes.size()));
    } catch (const std::exception& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
}

} // namespace tessera::studio
