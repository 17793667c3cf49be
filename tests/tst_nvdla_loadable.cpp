// The NVDLA loadable: descriptor layouts with the firmware's sizes, the FlatBuffers container written
// and read back, the dependency graph the builder derives, the validator naming the exact field of
// each broken rule, and `tessera nvdla configs | inspect`.
#include "base/error.h"
#include "nvdla/descriptor_layout.h"
#include "nvdla/loadable.h"
#include "nvdla/loadable_builder.h"
#include "nvdla/loadable_contents.h"
#include "nvdla/loadable_inspector.h"
#include "nvdla/loadable_validator.h"
#include "nvdla_samples.h"
#include "test_support.h"
#include "target/nvdla_configs.h"

#include <QTemporaryDir>
#include <QtTest>

#include <flatbuffers/flatbuffers.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <random>

using namespace tessera;
using namespace tessera::nvdla;

namespace {

using testing::blobBytes;
using testing::common;
using testing::hasFinding;
using testing::network;
using testing::operation;
using testing::surface;

using test::CliResult;
using test::runCli;

void writeBytes(const QString& path, const std::vector<std::uint8_t>& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
}

using Breaker = std::function<void(Loadable&)>;

}  // namespace

Q_DECLARE_METATYPE(Breaker)

class TestNvdlaLoadable : public QObject {
    Q_OBJECT

private slots:
    // The structures as the firmware (dla_interface.h, 0.12) and the runtime's emulator declare them.
    void layoutsHaveTheFirmwareSizes()
    {
        const DlaInterface& dla = currentDlaInterface();
        QCOMPARE(dla.version.text(), std::string("0.12.5"));
        QCOMPARE(dla.networkDesc.size, 40u);
        QCOMPARE(dla.commonOpDesc.size, 36u);
        QCOMPARE(dla.dataCube.size, 32u);
        QCOMPARE(dla.cvtParam.size, 8u);
        QCOMPARE(dla.opDesc.at(DlaOp::Conv).size, 92u);
        QCOMPARE(dla.opDesc.at(DlaOp::Sdp).size, 116u);
        QCOMPARE(dla.opDesc.at(DlaOp::Pdp).size, 52u);
        QCOMPARE(dla.opDesc.at(DlaOp::Cdp).size, 24u);
        QCOMPARE(dla.opDesc.at(DlaOp::Rubik).size, 4u);
        QCOMPARE(dla.surfaceDesc.at(DlaOp::Conv).size, 172u);
        QCOMPARE(dla.surfaceDesc.at(DlaOp::Bdma).size, 644u);
        QCOMPARE(dla.opContainerSize.size, 116u);
        QCOMPARE(dla.surfaceContainerSize.size, 644u);
        QCOMPARE(dla.lutParam.size, 700u);
        // Packed: pad_val follows out_precision at an odd offset.
        QCOMPARE(dla.opDesc.at(DlaOp::Conv).field("pad_val").offset, 74u);
        QCOMPARE(dla.opDesc.at(DlaOp::Sdp).field("y_op.enable").offset, 84u);
        QCOMPARE(dla.lutParam.field("linear_exp_start").offset, 648u);

        const DlaInterface* older = dlaInterfaceFor({0, 11, 0});
        QVERIFY(older);
        QCOMPARE(older->dataCube.size, 28u);
        QVERIFY(!older->dataCube.find("offset"));
        QCOMPARE(older->surfaceDesc.at(DlaOp::Conv).size, 152u);
        QCOMPARE(dlaInterfaceFor({0, 12, 3}), &dla);
        QVERIFY(!dlaInterfaceFor({0, 13, 0}));
        QVERIFY(!dlaInterfaceFor({1, 2, 0}));

        const EmuInterface& emu = currentEmuInterface();
        QCOMPARE(emu.networkDesc.size, 256u);
        QCOMPARE(emu.commonOpDesc.size, 12u);
        QCOMPARE(emu.powerOpDesc.size, 24u);
        QCOMPARE(emu.softmaxOpDesc.size, 16u);
        QCOMPARE(emu.opContainerBytes, 24u);
        QCOMPARE(emu.bufferDesc.size, 256u);
        QCOMPARE(emu.bufferDesc.field("format").offset, 10u);
        QCOMPARE(emu.bufferContainerBytes, 512u);
        QCOMPARE(preInt8EmuInterface().opContainerBytes, 16u);
    }

    void recordsCheckTheirFields()
    {
        const StructLayout& cube = currentDlaInterface().dataCube;
        std::vector<std::uint8_t> bytes(cube.size);
        Record record(cube, bytes);
        record.set("address", -1);
        record.set("line_stride", 0xfffffff0);
        QCOMPARE(record.get("address"), std::int64_t(-1));
        QCOMPARE(record.get("line_stride"), std::int64_t(0xfffffff0));
        QCOMPARE(int(bytes[2]), 0xff);  // little-endian, packed after the 16-bit type
        QVERIFY_THROWS_EXCEPTION(Error, record.set("width", 70000));
        QVERIFY_THROWS_EXCEPTION(Error, record.set("address", 40000));
        QVERIFY_THROWS_EXCEPTION(Error, record.get("no_such_field"));
    }

    void configsAreData()
    {
        QCOMPARE(target::nvdlaConfigs().size(), std::size_t(3));
        const target::NvdlaConfig& small = target::nvdlaConfig("NV_SMALL");
        QCOMPARE(small.atomicC, 8u);
        QCOMPARE(small.cbufBytes(), std::uint64_t(128 * 1024));
        QVERIFY(!small.supports(target::NvdlaPrecision::Fp16));
        QVERIFY(!small.hasSdpLut);
        QCOMPARE(target::nvdlaConfig("nv_full").cbufBytes(), std::uint64_t(512 * 1024));
        QVERIFY(target::nvdlaConfig("nv_large").supports(target::NvdlaPrecision::Fp16));
        QVERIFY(!target::nvdlaConfig("nv_large").hasRubik);
        try {
            target::nvdlaConfig("nv_tiny");
            QFAIL("an unknown configuration was accepted");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("nv_full, nv_large, nv_small") != std::string::npos);
        }
    }

    void builtLoadableRoundTrips()
    {
        const Loadable built = testing::sampleLoadable();
        QVERIFY2(isValid(validateLoadable(built)), formatFindings(validateLoadable(built)).c_str());
        QVERIFY(validateLoadable(built).empty());
        const std::vector<std::uint8_t> bytes = writeLoadable(built);
        QCOMPARE(std::string(reinterpret_cast<const char*>(bytes.data()) + 4, 4), std::string("NVDA"));
        const Loadable read = readLoadable(bytes, "sample.nvdla");
        QVERIFY(read.alignedForVerifier);
        QVERIFY(read.hasFileIdentifier);
        for (bool present : read.listPresent)
            QVERIFY(present);  // all eight, written even when empty
        // The bound input's and output's strides: a line and a surface relocation each.
        QCOMPARE(read.relocs.size(), std::size_t(4));
        QCOMPARE(read.relocs.size(), built.relocs.size());
        QCOMPARE(read.relocs[1].offset, built.relocs[1].offset);
        QCOMPARE(read.version.text(), std::string("0.7.0"));
        QCOMPARE(read.tasks.size(), std::size_t(2));
        QCOMPARE(read.submits.size(), std::size_t(2));
        QCOMPARE(read.events.size(), std::size_t(3));  // signal, wait, signal on one chain
        QCOMPARE(read.memories.size(), built.memories.size());
        QCOMPARE(read.blobs.size(), built.blobs.size());
        for (std::size_t i = 0; i < read.blobs.size(); ++i) {
            QCOMPARE(read.blobs[i].name, built.blobs[i].name);
            QVERIFY(read.blobs[i].data == built.blobs[i].data);
            QCOMPARE(read.blobs[i].version, built.blobs[i].version);
        }
        QCOMPARE(read.tensorDescs.at(0).name, std::string("data"));
        QCOMPARE(read.memories.at(read.tensorDescs.at(1).memId).flags, std::uint16_t(kMemoryAlloc | kMemoryOutput));
        QVERIFY(validateLoadable(read).empty());
        QVERIFY(writeLoadable(read) == bytes);  // a second write is the same file
    }

    // The builder's links are the firmware's: a unit's operations chained with OP_COMPLETED, a fused
    // SDP programmed after its CONV (OP_PROGRAMMED) and enabled before it (fused_parent, OP_ENABLED).
    void dependencyGraphIsTheFirmwares()
    {
        Loadable loadable = testing::sampleLoadable();
        const DlaTaskView view = decodeDlaTask(loadable, loadable.tasks[0]);
        QCOMPARE(view.operations.size(), std::size_t(3));
        const ConstRecord desc = view.network();
        QCOMPARE(desc.get("op_head[1]"), std::int64_t(0));
        QCOMPARE(desc.get("op_head[2]"), std::int64_t(1));
        QCOMPARE(desc.get("op_head[3]"), std::int64_t(2));
        QCOMPARE(desc.get("op_head[0]"), std::int64_t(-1));
        QCOMPARE(desc.get("num_addresses"), std::int64_t(loadable.tasks[0].addressList.size()));
        QCOMPARE(view.common(0).get("consumers[2].index"), std::int64_t(1));
        QCOMPARE(view.common(0).get("consumers[2].event"), std::int64_t(2));
        QCOMPARE(view.common(1).get("fused_parent.index"), std::int64_t(0));
        QCOMPARE(view.common(1).get("fused_parent.event"), std::int64_t(3));
        QCOMPARE(view.common(1).get("consumers[3].index"), std::int64_t(2));
        QCOMPARE(view.common(1).get("consumers[3].event"), std::int64_t(1));
        QCOMPARE(view.common(0).get("dependency_count"), std::int64_t(1));
        QCOMPARE(view.common(1).get("dependency_count"), std::int64_t(1));
        QCOMPARE(view.common(2).get("dependency_count"), std::int64_t(1));
        const EmuTaskView emu = decodeEmuTask(loadable, loadable.tasks[1]);
        QCOMPARE(emu.operations.size(), std::size_t(1));
        QCOMPARE(int(emu.operations[0].opType), int(kEmuOpSoftmax));
        QCOMPARE(emu.source(0).get("format"), std::int64_t(kEmuFormatFp16));

        // A producer listed after its consumer, and a fusion of units that are not neighbours, are refused.
        DlaTaskBuilder task(currentDlaInterface());
        const int a = task.addOperation(DlaOp::Pdp), b = task.addOperation(DlaOp::Conv);
        QVERIFY_THROWS_EXCEPTION(Error, task.dependsOn(a, b));
        QVERIFY_THROWS_EXCEPTION(Error, task.fuse(a, b));
    }

    void brokenLoadablesNameTheField_data()
    {
        QTest::addColumn<Breaker>("breaker");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing list") << Breaker([](Loadable& l) { l.listPresent[6] = false; })
                                      << "reloc_list" << "crashes on an absent one";
        QTest::newRow("address of no memory") << Breaker([](Loadable& l) { l.addresses[2].memId = 999; })
                                              << "address_list[2].mem_id" << "does not exist";
        QTest::newRow("address past its memory") << Breaker([](Loadable& l) { l.addresses[0].size += 1; })
                                                 << "address_list[0]" << "passes the end of memory";
        QTest::newRow("blob that is not there") << Breaker([](Loadable& l) { l.memories[2].contents[0] = "nothing"; })
                                                << "memory_list[2].contents[0]" << "does not exist";
        QTest::newRow("task address of nothing") << Breaker([](Loadable& l) { l.tasks[0].addressList[5] = 999; })
                                                 << "task_list[0].address_list[5]" << "does not exist";
        QTest::newRow("wait for no signal") << Breaker([](Loadable& l) { l.events[1].value = 7; })
                                            << "task_list[1].pre_actions" << "no task submitted before it signals";
        QTest::newRow("task submitted twice") << Breaker([](Loadable& l) { l.submits[1].taskIds = {0}; })
                                              << "task_list[1]" << "submitted 0 times";
        QTest::newRow("bind id twice") << Breaker([](Loadable& l) { l.memories[1].flags = kMemoryAlloc | kMemoryInput; })
                                       << "bind_id" << "bound by memory_list[0]";
        QTest::newRow("unknown firmware interface")
            << Breaker([](Loadable& l) {
                   for (LoadableBlob& blob : l.blobs)
                       if (blob.name == "task-0-addr0")
                           blob.version = {0, 14, 0};
               })
            << "task 0" << "declares firmware interface 0.14.0";
        QTest::newRow("more operations than descriptors")
            << Breaker([](Loadable& l) { network(l).set("num_operations", 4); }) << "task 0" << "the dependency graph";
        QTest::newRow("num_addresses") << Breaker([](Loadable& l) { network(l).set("num_addresses", 3); })
                                       << "num_addresses" << "address list has";
        QTest::newRow("op_head") << Breaker([](Loadable& l) { network(l).set("op_head[3]", 1); })
                                 << "dla_network_desc.op_head[3]" << "first PDP operation is 2";
        QTest::newRow("dependency count") << Breaker([](Loadable& l) { common(l, 2).set("dependency_count", 0); })
                                          << "op 2 (PDP).dependency_count" << "is 0 but 1 links";
        QTest::newRow("consumer of the wrong unit") << Breaker([](Loadable& l) { common(l, 1).set("consumers[3].index", 0); })
                                                    << "op 1 (SDP).consumers[3].index" << "is not a PDP operation";
        QTest::newRow("cube address") << Breaker([](Loadable& l) { surface(l, 2, DlaOp::Pdp).set("src_data.address", 40); })
                                      << "op 2 (PDP) src_data.address" << "outside the task's";
        QTest::newRow("cube past its address")
            << Breaker([](Loadable& l) { surface(l, 2, DlaOp::Pdp).set("dst_data.offset", 4096); })
            << "op 2 (PDP) dst_data" << "passes the end of address";
        QTest::newRow("pool size") << Breaker([](Loadable& l) {
            operation(l, 2, DlaOp::Pdp).set("pool_width", 9);
        }) << "op 2 (PDP) pool_width" << "not a pooling size code";
        QTest::newRow("firmware asserts conv out_cvt") << Breaker([](Loadable& l) {
            operation(l, 0, DlaOp::Conv).set("out_cvt.scale", 2);
        }) << "op 0 (CONV) out_cvt" << "the firmware asserts scale 1";
        QTest::newRow("PDP stride") << Breaker([](Loadable& l) {
            operation(l, 2, DlaOp::Pdp).set("stride_x", 9);
        }) << "op 2 (PDP) stride_x" << "PDP strides 1..8";
        QTest::newRow("SDP batch") << Breaker([](Loadable& l) {
            operation(l, 1, DlaOp::Sdp).set("batch_num", 0);
        }) << "op 1 (SDP) batch_num" << "at least 1";
        // The PDP waits for the SDP, which now also waits for the PDP: the firmware would hang.
        QTest::newRow("deadlock") << Breaker([](Loadable& l) {
            common(l, 2).set("consumers[2].index", 1);
            common(l, 2).set("consumers[2].event", 1);
            common(l, 1).set("dependency_count", 2);
        }) << "task 0 dependency graph" << "op 1 (SDP) waiting for";
        QTest::newRow("EMU buffer address") << Breaker([](Loadable& l) {
            Record(currentEmuInterface().bufferDesc, blobBytes(l, "task-1-op_buf_list")).set("addressIndex", 9);
        }) << "task 1 EMU op 0 src_data.addressIndex" << "outside the task's";
    }

    void brokenLoadablesNameTheField()
    {
        QFETCH(Breaker, breaker);
        QFETCH(QString, where);
        QFETCH(QString, message);
        Loadable loadable = testing::sampleLoadable();
        breaker(loadable);
        const std::vector<Finding> findings = validateLoadable(loadable);
        QVERIFY(!isValid(findings));
        QVERIFY2(hasFinding(findings, where.toStdString(), message.toStdString()), formatFindings(findings).c_str());
        // Explaining a broken loadable still works.
        QVERIFY(!explainLoadable(loadable).empty());
        QVERIFY(loadableToJson(loadable).contains("task_list"));
    }

    // A FlatBuffers file with nothing but a version: every list is reported missing.
    void absentListsAreFound()
    {
        const std::uint8_t version[4] = {0, 7, 0, 0};
        flatbuffers::FlatBufferBuilder minimal;
        const auto table = minimal.StartTable();
        // field 0 (version) is an inline 3-byte struct
        minimal.Align(1);
        minimal.PushBytes(version, 3);
        minimal.TrackField(4, minimal.GetSize());
        const auto root = minimal.EndTable(table);
        minimal.Finish(flatbuffers::Offset<void>(root), "NVDA");
        const std::vector<std::uint8_t> bytes(minimal.GetBufferPointer(), minimal.GetBufferPointer() + minimal.GetSize());
        const Loadable read = readLoadable(bytes, "bare.nvdla");
        QCOMPARE(read.version.text(), std::string("0.7.0"));
        const std::vector<Finding> findings = validateLoadable(read);
        int missing = 0;
        for (const Finding& finding : findings)
            missing += finding.message.find("crashes on an absent one") != std::string::npos;
        QCOMPARE(missing, 8);
    }

    // Truncated and mutated files: a clear error or a loadable, never a crash, whatever is done next.
    void corruptBytesNeverCrash()
    {
        const std::vector<std::uint8_t> good = writeLoadable(testing::sampleLoadable());
        std::mt19937 random(2026);
        int refused = 0, read = 0, invalid = 0;
        for (int iteration = 0; iteration < 2000; ++iteration) {
            std::vector<std::uint8_t> bytes = good;
            if (iteration % 3 == 0)
                bytes.resize(random() % bytes.size());
            else
                for (int k = 0; k < 1 + int(random() % 6); ++k)
                    bytes[random() % bytes.size()] = std::uint8_t(random());
            try {
                const Loadable loadable = readLoadable(bytes, "mutated.nvdla");
                ++read;
                const std::vector<Finding> findings = validateLoadable(loadable);
                invalid += !isValid(findings);
                (void)explainLoadable(loadable);
                (void)loadableToJson(loadable).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            } catch (const Error& error) {
                QVERIFY(std::string(error.what()).find("mutated.nvdla") != std::string::npos);
                ++refused;
            }
        }
        QVERIFY(refused > 0);
        QVERIFY(read > 0);
        QVERIFY(invalid > 0);
    }

    void commandLine()
    {
        const CliResult configs = runCli({"nvdla", "configs"});
        QCOMPARE(configs.exitCode, 0);
        QVERIFY(configs.out.contains(QRegularExpression("nv_small +8 +8 +8 +32x512x8 +128 KiB.* int8\n")));
        const CliResult configsJson = runCli({"nvdla", "configs", "--json"});
        QCOMPARE(configsJson.exitCode, 0);
        const auto list = nlohmann::json::parse(configsJson.out.toStdString());
        QCOMPARE(list.size(), std::size_t(3));
        QCOMPARE(list[0]["cbuf_bytes"].get<int>(), 512 * 1024);

        QTemporaryDir dir;
        const QString good = dir.filePath("sample.nvdla");
        writeBytes(good, writeLoadable(testing::sampleLoadable()));
        const CliResult inspected = runCli({"nvdla", "inspect", good});
        QCOMPARE(inspected.exitCode, 0);
        QVERIFY2(inspected.out.contains("task 0: DLA (firmware interface 0.12.5), 3 operations: 1 CONV, 1 SDP, 1 PDP"),
                 qPrintable(inspected.out));
        QVERIFY(inspected.out.contains("src=8x8x4 @4 ('data' 1x4x8x8 FP16)"));
        QVERIFY(inspected.out.contains("task 1: EMU (CPU), 1 operations"));
        QVERIFY(inspected.out.contains("('prob' 1x8x1x1 FP16)"));
        QVERIFY(inspected.out.contains("checks: every list"));

        const CliResult json = runCli({"nvdla", "inspect", "--json", good});
        QCOMPARE(json.exitCode, 0);
        const auto document = nlohmann::json::parse(json.out.toStdString());
        QCOMPARE(document["valid"].get<bool>(), true);
        QCOMPARE(document["task_list"][0]["operations"][2]["op"]["pool_width"].get<int>(), 7);
        QCOMPARE(document["task_list"][0]["operations"][0]["surface"]["src_data.line_stride"].get<int>(), 8 * 32);
        QCOMPARE(document["task_list"][1]["operations"][0]["op"].get<std::string>(), std::string("SOFTMAX"));

        Loadable broken = testing::sampleLoadable();
        common(broken, 2).set("dependency_count", 3);
        const QString bad = dir.filePath("broken.nvdla");
        writeBytes(bad, writeLoadable(broken));
        const CliResult refused = runCli({"nvdla", "inspect", bad});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("error: task 0 op 2 (PDP).dependency_count: is 3 but 1 links point at the operation"),
                 qPrintable(refused.err));

        const QString truncated = dir.filePath("truncated.nvdla");
        std::vector<std::uint8_t> bytes = writeLoadable(testing::sampleLoadable());
        bytes.resize(bytes.size() / 2);
        writeBytes(truncated, bytes);
        const CliResult corrupt = runCli({"nvdla", "inspect", truncated});
        QCOMPARE(corrupt.exitCode, 2);  // a file that is not a loadable: bad input
        QVERIFY2(corrupt.err.contains("truncated.nvdla: not an NVDLA loadable"), qPrintable(corrupt.err));
    }
};

QTEST_GUILESS_MAIN(TestNvdlaLoadable)
#include "tst_nvdla_loadable.moc"
