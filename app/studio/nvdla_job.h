#pragma once
// The studio's NVDLA work off the GUI thread, as plain functions returning a value or an error
// message: the capability report of the open model on a configuration, the compilation when every
// node maps, and the project export.
#include "nvdla/compile/nvdla_compiler.h"
#include "session/session.h"
#include "target/nvdla_configs.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace tessera::studio {

// The bar's NVDLA targets: "nvdla:<config>:<precision>" ("nvdla:nv_small:int8"), one per
// configuration and precision it runs, with a display name ("NVDLA nv_small INT8").
struct NvdlaTarget {
    std::string config;
    target::NvdlaPrecision precision = target::NvdlaPrecision::Fp16;
};
struct NvdlaTargetEntry {
    QString name, displayName;
};
std::vector<NvdlaTargetEntry> nvdlaTargets();
std::optional<NvdlaTarget> parseNvdlaTarget(const QString& target);  // nullopt for a GAP target

struct NvdlaOutcome {
    std::optional<nvdla::MappingReport> mapping;  // absent when the configuration refuses the precision
    std::vector<nvdla::ModelNodeMapping> modelNodes;  // per model node (NodeId)
    std::shared_ptr<const nvdla::NvdlaCompilation> compilation;  // when every node maps and it compiled
    QString error;    // why there is no compilation
    double milliseconds = 0;
};
// INT8 calibrates on seeded random inputs (the compilation's warnings say so).
NvdlaOutcome nvdlaJob(std::shared_ptr<const Session> session, const NvdlaTarget& target);

// What the compilation emitted for model node `node`: the legalized node doing its work (itself, or
// the node an activation was fused into) and the parts split-input-channels made of it.
std::vector<const nvdla::EmittedNode*> emittedFor(const NvdlaOutcome& outcome, const Graph& model, NodeId node);

// The steps of the DRAM timeline (one per operation of the surface plan) and the model nodes each
// runs: a fused activation shares its convolution's step, a convolution split into parts has the
// first part's step and is listed at every part's. Nodes that run as views have no step. Empty
// without a compilation.
struct NvdlaSteps {
    QHash<QString, int> stepOfNode;  // model node name -> step
    QList<QStringList> nodesOfStep;
};
NvdlaSteps nvdlaSteps(const NvdlaOutcome& outcome, const Graph& model);

// The graph's marks per model node: "fused" for an activation an SDP stage runs, "split xN" for a
// convolution that runs as N CONV operations; with the explanation for the tooltip.
struct NvdlaNodeMarks {
    QStringList marks, explanations;
};
NvdlaNodeMarks nvdlaNodeMarks(const NvdlaOutcome& outcome, const Graph& model);

// Run: the loadable simulated on the project's sample input, or on a user's file (an image as
// nvdla_runtime reads it, or a tensor file), each node's output (the last operation writing it)
// compared with the reference interpreter's on the same real values.
struct NvdlaRunRow {
    QString node, operations, shape, note;
    bool compared = false;
    double largestDifference = 0, largestReference = 0;  // real values (INT8: int8 x scale)
};
struct NvdlaRunOutcome {
    std::vector<NvdlaRunRow> rows;
    QString summary, error;
};
NvdlaRunOutcome simulateNvdlaJob(std::shared_ptr<const Session> session,
                                 std::shared_ptr<const nvdla::NvdlaCompilation> compilation,
                                 const QString& inputFile = {});

struct NvdlaExportOutcome {
    QString folder, summary, error;
};
// File > Export NVDLA project: the exporter around the compilation shown, as `tessera compile
// --target nvdla` writes it.
NvdlaExportOutcome exportNvdlaProjectJob(std::shared_ptr<const nvdla::NvdlaCompilation> compilation,
                                         const QString& folder);

} // namespace tessera::studio
