// Seeded mutation fuzzing of everything that reads user files: the ONNX importer, shape inference,
// constant folding, the interpreter, the tensor file reader and the NVDLA loadable reader, validator
// and inspector. Every mutated input must either
// work or fail with a tessera::Error; any other exception fails the test, and a crash or memory
// error fails it under the sanitizer build.
#include "interp/interpreter.h"
#include "nvdla/loadable.h"
#include "nvdla/loadable_inspector.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "zoo/zoo.h"
#include "nvdla_samples.h"
#include "io/file_io.h"
#include "base/error.h"
#include "onnx/onnx_import.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "nvdla_networks.h"
#include "test_support.h"

#include <QtTest>

#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <random>

using namespace tessera;

namespace {

// Largest tensor the fuzzer lets the interpreter allocate, so absurd but valid shapes stay cheap.
constexpr int64_t kMaxFuzzElements = 1 << 16;

// Every 9th ONNX node test model, a deterministic spread over the operators.
std::vector<std::string> seedModels()
{
    std::vector<std::string> dirs;
    for (const auto& entry : std::filesystem::directory_iterator(TESSERA_ONNX_TESTDATA "/node"))
        dirs.push_back(entry.path().string());
    std::sort(dirs.begin(), dirs.end());
    std::vector<std::string> seeds;
    for (size_t k = 0; k < dirs.size(); k += 9)
        seeds.push_back(readFileBytes(dirs[k] + "/model.onnx"));
    return seeds;
}

void mutateBytes(std::string& bytes, std::mt19937& random)
{
    if (bytes.empty())
        return;
    std::uniform_int_distribution<size_t> position(0, bytes.size() - 1);
    switch (random() % 4) {
    case 0: // flip a few bytes
        for (int k = 0; k < 1 + int(random() % 4); ++k)
            bytes[position(random)] = static_cast<char>(random());
        break;
    case 1: // truncate
        bytes.resize(position(random));
        break;
    case 2: // insert random bytes
        bytes.insert(position(random), std::string(1 + random() % 8, static_cast<char>(random())));
        break;
    default: // duplicate a slice
        bytes.insert(position(random), bytes.substr(position(random), 1 + random() % 16));
        break;
    }
}

int64_t absurdValue(std::mt19937& random)
{
    const int64_t values[] = {-2, -1, 0, 1, 2, 3, 7, 1 << 20, int64_t{1} << 40, INT64_MAX, INT64_MIN};
    return values[random() % std::size(values)];
}

// Changes one field that parses fine but may break an operator's rules.
void mutateStructure(onnx::ModelProto& model, std::mt19937& random)
{
    onnx::GraphProto& graph = *model.mutable_graph();
    switch (random() % 5) {
    case 0:
        if (graph.input_size() > 0) {
            auto* shape = graph.mutable_input(int(random() % graph.input_size()))->mutable_type()->mutable_tensor_type()->mutable_shape();
            if (shape->dim_size() > 0)
                shape->mutable_dim(int(random() % shape->dim_size()))->set_dim_value(absurdValue(random));
            else
                shape->add_dim()->set_dim_value(absurdValue(random));
        }
        break;
    case 1:
        if (graph.node_size() > 0) {
            auto* node = graph.mutable_node(int(random() % graph.node_size()));
            if (node->attribute_size() > 0) {
                auto* attribute = node->mutable_attribute(int(random() % node->attribute_size()));
                if (attribute->ints_size() > 0)
                    attribute->set_ints(int(random() % attribute->ints_size()), absurdValue(random));
                else
                    attribute->set_i(absurdValue(random));
            }
        }
        break;
    case 2:
        if (graph.input_size() > 0)
            graph.mutable_input(int(random() % graph.input_size()))->mutable_type()->mutable_tensor_type()->set_elem_type(int(random() % 17));
        break;
    case 3:
        if (graph.node_size() > 0) {
            auto* node = graph.mutable_node(int(random() % graph.node_size()));
            if (node->input_size() > 0 && random() % 2)
                node->mutable_input()->RemoveLast();
            else
                node->add_input(graph.input_size() > 0 ? graph.input(0).name() : "x");
        }
        break;
    default:
        if (graph.initializer_size() > 0) {
            auto* tensor = graph.mutable_initializer(int(random() % graph.initializer_size()));
            if (tensor->dims_size() > 0)
                tensor->set_dims(int(random() % tensor->dims_size()), absurdValue(random));
        }
        break;
    }
}

// Imports, prepares and (when small) runs the model on zeros. Returns false for an exception that is
// not a tessera::Error, with its message in `failure`.
bool survives(const std::string& bytes, std::string& failure)
{
    try {
        Graph graph = importOnnxBytes(bytes, "fuzz.onnx");
        prepareGraph(graph);
        std::vector<TensorData> inputs;
        for (TensorId id : graph.inputs) {
            const Tensor& tensor = graph.tensor(id);
            if (tensor.elements() > kMaxFuzzElements)
                return true;
            inputs.emplace_back(tensor.dtype, tensor.shape);
        }
        for (const Tensor& tensor : graph.tensors())
            if (tensor.typed && tensor.elements() > kMaxFuzzElements)
                return true;
        Interpreter(graph).run(inputs);
    } catch (const Error&) {
    } catch (const std::exception& error) {
        failure = std::string(typeid(error).name()) + ": " + error.what();
        return false;
    }
    return true;
}

} // namespace

class TestFuzz : public QObject {
    Q_OBJECT

private slots:
    void mutatedModelBytes()
    {
        const std::vector<std::string> seeds = seedModels();
        QVERIFY(seeds.size() > 50);
        std::mt19937 random(20261123);
        int failures = 0;
        for (int iteration = 0; iteration < 3000; ++iteration) {
            std::string bytes = seeds[random() % seeds.size()];
            mutateBytes(bytes, random);
            std::string failure;
            if (!survives(bytes, failure)) {
                qWarning("iteration %d: %s", iteration, failure.c_str());
                ++failures;
            }
        }
        QCOMPARE(failures, 0);
    }

    void mutatedModelStructure()
    {
        const std::vector<std::string> seeds = seedModels();
        std::mt19937 random(42);
        int failures = 0;
        for (int iteration = 0; iteration < 3000; ++iteration) {
            onnx::ModelProto model;
            QVERIFY(model.ParseFromString(seeds[random() % seeds.size()]));
            for (int k = 0; k < 1 + int(random() % 3); ++k)
                mutateStructure(model, random);
            std::string bytes;
            model.SerializeToString(&bytes);
            std::string failure;
            if (!survives(bytes, failure)) {
                qWarning("iteration %d (%s): %s", iteration, model.graph().node_size() ? model.graph().node(0).op_type().c_str() : "",
                         failure.c_str());
                ++failures;
            }
        }
        QCOMPARE(failures, 0);
    }

    void mutatedTensorFiles()
    {
        onnx::TensorProto proto;
        tensorToProto(TensorData::fromFloats({2, 3}, {1, 2, 3, 4, 5, 6}), "t", proto);
        std::string good;
        proto.SerializeToString(&good);
        std::mt19937 random(7);
        int accepted = 0, refused = 0;
        for (int iteration = 0; iteration < 3000; ++iteration) {
            std::string bytes = good;
            mutateBytes(bytes, random);
            onnx::TensorProto mutated;
            if (!mutated.ParseFromString(bytes))
                continue;
            try {
                const TensorData data = tensorFromProto(mutated, "t.pb");
                QCOMPARE(int64_t(data.byteSize()), data.elements() * int64_t(dtypeSize(data.dtype())));
                ++accepted;
            } catch (const Error&) {
                ++refused;
            }
        }
        // Both outcomes occur, so the mutations reach past the protobuf parser.
        QVERIFY(accepted > 0);
        QVERIFY(refused > 0);
    }

    // NVDLA loadables: flipped, truncated, inserted and duplicated bytes. Each is refused with a
    // tessera::Error or read, and then validated, explained and dumped as JSON without a crash.
    void mutatedLoadables()
    {
        // Seeds: the builder's sample, a compiled MNIST classifier, FP16 on nv_full and INT8 on
        // nv_small (each simulated on its configuration), a network with lookup tables and one that
        // rearranges channels (RUBIK and BDMA).
        const std::vector<std::uint8_t> sample = nvdla::writeLoadable(testing::sampleLoadable());
        Graph mnist = buildZooModel("mnist", {});
        prepareGraph(mnist);
        const std::vector<std::uint8_t> compiled = nvdla::compileForNvdla(mnist, {}).bytes;
        nvdla::NvdlaCompileOptions small;
        small.config = "nv_small";
        const std::vector<std::uint8_t> compiledInt8 = nvdla::compileForNvdla(mnist, small).bytes;
        const std::vector<std::uint8_t> lookup = nvdla::compileForNvdla(test::lookupNetwork(), {}).bytes;
        const std::vector<std::uint8_t> rearrange = nvdla::compileForNvdla(test::rearrangeNetwork(), {}).bytes;
        const std::vector<std::string> seeds = {std::string(sample.begin(), sample.end()),
                                                std::string(compiled.begin(), compiled.end()),
                                                std::string(compiledInt8.begin(), compiledInt8.end()),
                                                std::string(lookup.begin(), lookup.end()),
                                                std::string(rearrange.begin(), rearrange.end())};
        const std::vector<std::string> configs = {"nv_full", "nv_full", "nv_small", "nv_full", "nv_full"};
        std::mt19937 random(11);
        int read = 0, refused = 0, failures = 0, simulated = 0;
        for (int iteration = 0; iteration < 3000; ++iteration) {
            std::string bytes = seeds[std::size_t(iteration) % seeds.size()];
            for (int k = 0; k < 1 + int(random() % 3); ++k)
                mutateBytes(bytes, random);
            try {
                const nvdla::Loadable loadable = nvdla::readLoadable(
                    std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "fuzz.nvdla");
                (void)nvdla::validateLoadable(loadable);
                (void)nvdla::explainLoadable(loadable);
                (void)nvdla::loadableToJson(loadable).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
                ++read;
                // What `tessera nvdla run` does: a valid loadable is simulated on inputs of its shapes.
                if (nvdla::isValid(nvdla::validateLoadable(loadable))) {
                    std::vector<TensorData> inputs;
                    for (const nvdla::TensorDesc& tensor : nvdla::loadableInputs(loadable))
                        inputs.push_back(TensorData::fromFloats(
                            {1, tensor.c, tensor.h, tensor.w},
                            std::vector<float>(std::size_t(std::max(0, tensor.c) * std::max(0, tensor.h) * std::max(0, tensor.w)), 0.5f)));
                    nvdla::simulateLoadable(loadable, inputs,
                                            target::nvdlaConfig(configs[std::size_t(iteration) % seeds.size()]));
                    ++simulated;
                }
            } catch (const Error&) {
                ++refused;
            } catch (const std::exception& other) {
                qWarning("iteration %d: %s", iteration, other.what());
                ++failures;
            }
        }
        qInfo("3000 mutated loadables: %d read, %d of them simulated; %d refused by the reader or the simulator", read,
              simulated, refused);
        QCOMPARE(failures, 0);
        QVERIFY(read > 0);
        QVERIFY(refused > 0);
    }
};

QTEST_GUILESS_MAIN(TestFuzz)
#include "tst_fuzz.moc"
