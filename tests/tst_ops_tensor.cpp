// Shape rules and reference kernels of the tensor operators: reshaping, transposing, joining and
// splitting, slicing, gathering and scattering, padding, creation (Shape, Range, OneHot, ...) and
// selection (ArgMax, TopK, NonZero, Compress, CumSum, Trilu).
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "base/error.h"
#include "ir/shape_inference.h"
#include "op_test_support.h"

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace tessera;
using namespace tessera::test;

namespace {

// One node input: a runtime graph input, a graph constant (values shape rules may read), or absent.
struct In {
    std::optional<TensorData> value;
    bool constant = false;
};

In in(TensorData value) { return {std::move(value), false}; }
In cst(TensorData value) { return {std::move(value), true}; }
In absent() { return {}; }

TensorData f32(const Dims& dims, const Values& values) { return tensor(DType::Float32, dims, values); }
TensorData i64(const Dims& dims, const Values& values) { return tensor(DType::Int64, dims, values); }
TensorData i32(const Dims& dims, const Values& values) { return tensor(DType::Int32, dims, values); }
TensorData boolean(const Dims& dims, const Values& values) { return tensor(DType::Bool, dims, values); }

AttributeMap attrs(std::initializer_list<std::pair<const std::string, Attribute>> list) { return AttributeMap(list); }
Attribute ints(std::vector<int64_t> values) { return Attribute::ofInts(std::move(values)); }
Attribute one(int64_t value) { return Attribute::ofInt(value); }

// Runs one node of `op`; constant inputs become graph constants, the others graph inputs.
std::vector<TensorData> run(const std::string& op, const std::vector<In>& inputs, AttributeMap attributes = {},
                            int64_t opset = 17, size_t outputCount = 1)
{
    GraphBuilder builder("g", opset);
    std::vector<TensorId> ids;
    std::vector<TensorData> values;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const In& input = inputs[k];
        std::string name = input.constant ? "c" : "in";
        name += std::to_string(k);
        if (!input.value)
            ids.push_back(kNoTensor);
        else if (input.constant)
            ids.push_back(builder.constant(name, *input.value));
        else {
            ids.push_back(builder.input(name, input.value->dtype(), input.value->shape()));
            values.push_back(*input.value);
        }
    }
    for (TensorId id : builder.node(op, ids, std::move(attributes), outputCount, "n"))
        builder.output(id);
    return Interpreter(builder.finish()).run(values);
}

struct Case {
    std::string op;
    int64_t opset = 17;
    std::vector<In> inputs;
    AttributeMap attributes;
    std::vector<TensorData> expected;
};

} // namespace

Q_DECLARE_METATYPE(Case)

namespace {

void addCase(const char* name, Case c) { QTest::newRow(name) << c; }

void checkCase()
{
    QFETCH(Case, c);
    const std::vector<TensorData> outputs = run(c.op, c.inputs, c.attributes, c.opset, c.expected.size());
    QCOMPARE(outputs.size(), c.expected.size());
    for (size_t k = 0; k < outputs.size(); ++k)
        compare(outputs[k], c.expected[k]);
}

const double kInt64Min = static_cast<double>(std::numeric_limits<int64_t>::min());

} // namespace

class TestOpsTensor : public QObject {
    Q_OBJECT

private slots:
    void movement_data();
    void movement() { checkCase(); }
    void slicing_data();
    void slicing() { checkCase(); }
    void gathering_data();
    void gathering() { checkCase(); }
    void scattering_data();
    void scattering() { checkCase(); }
    void padding_data();
    void padding() { checkCase(); }
    void creation_data();
    void creation() { checkCase(); }
    void selection_data();
    void selection() { checkCase(); }
    void dataMovementKeepsBytesExact();
    void staticInferenceNeedsConstantShape();
    void constantShapeTypesStatically();
    void reshapeErrors();
    void axisErrors();
    void indexErrors();
    void parameterErrors();
    void absurdValuesFailCleanly();
};

void TestOpsTensor::movement_data()
{
    QTest::addColumn<Case>("c");
    const Values six{1, 2, 3, 4, 5, 6};
    addCase("reshape infers -1", {"Reshape", 14, {in(f32({2, 3}, six)), cst(i64({2}, {3, -1}))}, {}, {f32({3, 2}, six)}});
    addCase("reshape 0 copies", {"Reshape", 13, {in(f32({2, 3}, six)), cst(i64({3}, {0, 3, 1}))}, {}, {f32({2, 3, 1}, six)}});
    addCase("reshape allowzero", {"Reshape", 14, {in(f32({0, 3}, {})), cst(i64({2}, {3, 0}))},
                                  attrs({{"allowzero", one(1)}}), {f32({3, 0}, {})}});
    addCase("flatten default axis", {"Flatten", 13, {in(f32({2, 3, 1}, six))}, {}, {f32({2, 3}, six)}});
    addCase("flatten axis 0", {"Flatten", 13, {in(f32({2, 3}, six))}, attrs({{"axis", one(0)}}), {f32({1, 6}, six)}});
    addCase("flatten axis -1", {"Flatten", 11, {in(f32({3, 1, 2}, six))}, attrs({{"axis", one(-1)}}), {f32({3, 2}, six)}});
    addCase("squeeze attribute", {"Squeeze", 11, {in(f32({1, 3, 1}, {1, 2, 3}))}, attrs({{"axes", ints({0})}}),
                                  {f32({3, 1}, {1, 2, 3})}});
    addCase("squeeze all ones", {"Squeeze", 13, {in(f32({1, 3, 1}, {1, 2, 3}))}, {}, {f32({3}, {1, 2, 3})}});
    addCase("squeeze axes input", {"Squeeze", 13, {in(f32({1, 3, 1}, {1, 2, 3})), cst(i64({1}, {-1}))}, {},
                                   {f32({1, 3}, {1, 2, 3})}});
    addCase("unsqueeze attribute", {"Unsqueeze", 11, {in(f32({2, 3}, six))}, attrs({{"axes", ints({0, 3})}}),
                                    {f32({1, 2, 3, 1}, six)}});
    addCase("unsqueeze axes input", {"Unsqueeze", 13, {in(f32({3}, {1, 2, 3})), cst(i64({1}, {-1}))}, {},
                                     {f32({3, 1}, {1, 2, 3})}});
    addCase("transpose reverses", {"Transpose", 13, {in(f32({2, 3}, six))}, {}, {f32({3, 2}, {1, 4, 2, 5, 3, 6})}});
    addCase("transpose perm", {"Transpose", 13, {in(f32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}))},
                               attrs({{"perm", ints({1, 2, 0})}}), {f32({2, 2, 2}, {0, 4, 1, 5, 2, 6, 3, 7})}});
    addCase("concat axis 1", {"Concat", 13, {in(f32({2, 1}, {1, 2})), in(f32({2, 2}, {3, 4, 5, 6}))},
                              attrs({{"axis", one(1)}}), {f32({2, 3}, {1, 3, 4, 2, 5, 6})}});
    addCase("concat negative axis int64", {"Concat", 13, {in(i64({1, 2}, {1, 2})), in(i64({0, 2}, {})), in(i64({1, 2}, {3, 4}))},
                                           attrs({{"axis", one(-2)}}), {i64({2, 2}, {1, 2, 3, 4})}});
    addCase("expand", {"Expand", 13, {in(f32({3, 1}, {1, 2, 3})), cst(i64({3}, {2, 1, 2}))}, {},
                       {f32({2, 3, 2}, {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3})}});
    addCase("tile", {"Tile", 13, {in(f32({2, 2}, {1, 2, 3, 4})), cst(i64({2}, {1, 2}))}, {},
                     {f32({2, 4}, {1, 2, 1, 2, 3, 4, 3, 4})}});
    const Values eight{0, 1, 2, 3, 4, 5, 6, 7};
    addCase("depth to space DCR", {"DepthToSpace", 13, {in(f32({1, 8, 1, 1}, eight))}, attrs({{"blocksize", one(2)}}),
                                   {f32({1, 2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7})}});
    addCase("depth to space CRD", {"DepthToSpace", 13, {in(f32({1, 8, 1, 1}, eight))},
                                   attrs({{"blocksize", one(2)}, {"mode", Attribute::ofString("CRD")}}),
                                   {f32({1, 2, 2, 2}, eight)}});
    addCase("space to depth", {"SpaceToDepth", 13, {in(f32({1, 2, 2, 2}, eight))}, attrs({{"blocksize", one(2)}}),
                               {f32({1, 8, 1, 1}, {0, 4, 1, 5, 2, 6, 3, 7})}});
}

void TestOpsTensor::slicing_data()
{
    QTest::addColumn<Case>("c");
    Values twelve;
    for (int v = 0; v < 12; ++v)
        twelve << v;
    const Values five{0, 1, 2, 3, 4};
    addCase("slice leading axes", {"Slice", 13, {in(f32({3, 4}, twelve)), cst(i64({2}, {1, 0})), cst(i64({2}, {3, 3}))},
                                   {}, {f32({2, 3}, {4, 5, 6, 8, 9, 10})}});
    addCase("slice negative step", {"Slice", 13, {in(f32({5}, five)), cst(i64({1}, {-1})), cst(i64({1}, {kInt64Min})),
                                                  cst(i64({1}, {0})), cst(i64({1}, {-2}))},
                                    {}, {f32({3}, {4, 2, 0})}});
    addCase("slice clamps end", {"Slice", 13, {in(f32({5}, five)), cst(i64({1}, {2})), cst(i64({1}, {1000}))}, {},
                                 {f32({3}, {2, 3, 4})}});
    addCase("slice empty", {"Slice", 13, {in(f32({5}, five)), cst(i64({1}, {3})), cst(i64({1}, {1}))}, {},
                            {f32({0}, {})}});
    addCase("slice negative axis int32", {"Slice", 13, {in(f32({2, 3}, {0, 1, 2, 3, 4, 5})), cst(i32({1}, {1})),
                                                        cst(i32({1}, {3})), cst(i32({1}, {-1}))},
                                          {}, {f32({2, 2}, {1, 2, 4, 5})}});
    addCase("slice attributes opset 9", {"Slice", 9, {in(f32({2, 3}, {0, 1, 2, 3, 4, 5}))},
                                         attrs({{"starts", ints({1})}, {"ends", ints({2})}, {"axes", ints({1})}}),
                                         {f32({2, 1}, {1, 4})}});
    addCase("split input", {"Split", 13, {in(f32({6}, {1, 2, 3, 4, 5, 6})), cst(i64({2}, {2, 4}))}, {},
                            {f32({2}, {1, 2}), f32({4}, {3, 4, 5, 6})}});
    addCase("split attribute", {"Split", 11, {in(f32({2, 3}, {0, 1, 2, 3, 4, 5}))},
                                attrs({{"split", ints({1, 2})}, {"axis", one(1)}}),
                                {f32({2, 1}, {0, 3}), f32({2, 2}, {1, 2, 4, 5})}});
    addCase("split num_outputs", {"Split", 18, {in(f32({5}, five))}, attrs({{"num_outputs", one(3)}}),
                                  {f32({2}, {0, 1}), f32({2}, {2, 3}), f32({1}, {4})}});
}

void TestOpsTensor::gathering_data()
{
    QTest::addColumn<Case>("c");
    const Values six{0, 1, 2, 3, 4, 5};
    addCase("gather negative index", {"Gather", 13, {in(f32({3, 2}, {1, 2, 3, 4, 5, 6})), in(i64({2}, {2, -3}))}, {},
                                      {f32({2, 2}, {5, 6, 1, 2})}});
    addCase("gather axis 1", {"Gather", 13, {in(f32({2, 3}, six)), in(i32({2, 2}, {0, 2, 1, 1}))}, attrs({{"axis", one(1)}}),
                              {f32({2, 2, 2}, {0, 2, 1, 1, 3, 5, 4, 4})}});
    addCase("gather scalar index", {"Gather", 13, {in(f32({3}, {7, 8, 9})), in(i64({}, {1}))}, {}, {f32({}, {8})}});
    addCase("gather elements", {"GatherElements", 13, {in(f32({2, 2}, {1, 2, 3, 4})), in(i64({2, 2}, {0, 0, 1, 0}))},
                                attrs({{"axis", one(1)}}), {f32({2, 2}, {1, 1, 4, 3})}});
    addCase("gather elements axis 0", {"GatherElements", 13, {in(f32({2, 2}, {1, 2, 3, 4})), in(i64({1, 2}, {1, -2}))},
                                       {}, {f32({1, 2}, {3, 2})}});
    addCase("gathernd elements", {"GatherND", 13, {in(f32({2, 2}, {0, 1, 2, 3})), in(i64({2, 2}, {0, 0, 1, 1}))}, {},
                                  {f32({2}, {0, 3})}});
    addCase("gathernd rows", {"GatherND", 13, {in(f32({2, 2}, {0, 1, 2, 3})), in(i64({2, 1}, {1, 0}))}, {},
                              {f32({2, 2}, {2, 3, 0, 1})}});
    addCase("gathernd batch_dims", {"GatherND", 13, {in(f32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})), in(i64({2, 1}, {1, 0}))},
                                    attrs({{"batch_dims", one(1)}}), {f32({2, 2}, {2, 3, 4, 5})}});
}

void TestOpsTensor::scattering_data()
{
    QTest::addColumn<Case>("c");
    const Attribute add = Attribute::ofString("add");
    addCase("scatternd", {"ScatterND", 13, {in(f32({4}, {1, 2, 3, 4})), in(i64({2, 1}, {1, 3})), in(f32({2}, {10, 20}))},
                          {}, {f32({4}, {1, 10, 3, 20})}});
    addCase("scatternd add duplicates", {"ScatterND", 16, {in(f32({4}, {1, 2, 3, 4})), in(i64({2, 1}, {1, 1})),
                                                           in(f32({2}, {10, 20}))},
                                         attrs({{"reduction", add}}), {f32({4}, {1, 32, 3, 4})}});
    addCase("scatternd slice", {"ScatterND", 13, {in(i64({2, 2}, {1, 2, 3, 4})), in(i64({1, 1}, {-1})), in(i64({1, 2}, {9, 8}))},
                                {}, {i64({2, 2}, {1, 2, 9, 8})}});
    addCase("scatter elements axis 1", {"ScatterElements", 13, {in(f32({2, 3}, {0, 0, 0, 0, 0, 0})), in(i64({2, 1}, {1, 2})),
                                                                in(f32({2, 1}, {5, 6}))},
                                        attrs({{"axis", one(1)}}), {f32({2, 3}, {0, 5, 0, 0, 0, 6})}});
    addCase("scatter elements mul", {"ScatterElements", 16, {in(f32({3}, {1, 2, 3})), in(i64({2}, {0, 0})), in(f32({2}, {2, 3}))},
                                     attrs({{"reduction", Attribute::ofString("mul")}}), {f32({3}, {6, 2, 3})}});
    addCase("scatter elements max", {"ScatterElements", 18, {in(i32({3}, {1, 5, 3})), in(i64({2}, {1, -1})), in(i32({2}, {4, 7}))},
                                     attrs({{"reduction", Attribute::ofString("max")}}), {i32({3}, {1, 5, 7})}});
    addCase("scatter opset 10", {"Scatter", 10, {in(f32({3}, {0, 0, 0})), in(i32({1}, {1})), in(f32({1}, {9}))}, {},
                                 {f32({3}, {0, 9, 0})}});
}

void TestOpsTensor::padding_data()
{
    QTest::addColumn<Case>("c");
    const Attribute reflect = Attribute::ofString("reflect");
    addCase("constant value", {"Pad", 13, {in(f32({2, 2}, {1, 2, 3, 4})), cst(i64({4}, {1, 0, 0, 1})), in(f32({}, {9}))}, {},
                               {f32({3, 3}, {9, 9, 9, 1, 2, 9, 3, 4, 9})}});
    addCase("reflect", {"Pad", 13, {in(f32({3}, {1, 2, 3})), cst(i64({2}, {2, 2}))}, attrs({{"mode", reflect}}),
                        {f32({7}, {3, 2, 1, 2, 3, 2, 1})}});
    addCase("reflect beyond size", {"Pad", 13, {in(f32({2}, {1, 2})), cst(i64({2}, {3, 0}))}, attrs({{"mode", reflect}}),
                                    {f32({5}, {2, 1, 2, 1, 2})}});
    addCase("edge", {"Pad", 13, {in(i64({3}, {1, 2, 3})), cst(i64({2}, {1, 2}))}, attrs({{"mode", Attribute::ofString("edge")}}),
                     {i64({6}, {1, 1, 2, 3, 3, 3})}});
    addCase("negative pads crop", {"Pad", 13, {in(f32({4}, {1, 2, 3, 4})), cst(i64({2}, {-1, 1}))}, {},
                                   {f32({4}, {2, 3, 4, 0})}});
    addCase("attributes opset 10", {"Pad", 10, {in(f32({2}, {1, 2}))},
                                    attrs({{"pads", ints({1, 1})}, {"value", Attribute::ofFloat(5)}}),
                                    {f32({4}, {5, 1, 2, 5})}});
    addCase("axes opset 18", {"Pad", 18, {in(f32({2, 2}, {1, 2, 3, 4})), cst(i64({2}, {1, 0})), absent(), cst(i64({1}, {1}))},
                              {}, {f32({2, 3}, {0, 1, 2, 0, 3, 4})}});
}

void TestOpsTensor::creation_data()
{
    QTest::addColumn<Case>("c");
    const TensorData cube = f32({2, 3, 4}, Values(24, 0.0));
    addCase("shape", {"Shape", 13, {in(cube)}, {}, {i64({3}, {2, 3, 4})}});
    addCase("shape start", {"Shape", 15, {in(cube)}, attrs({{"start", one(1)}}), {i64({2}, {3, 4})}});
    addCase("shape end", {"Shape", 15, {in(cube)}, attrs({{"end", one(-1)}}), {i64({2}, {2, 3})}});
    addCase("size", {"Size", 13, {in(cube)}, {}, {i64({}, {24})}});
    addCase("constant of shape int32", {"ConstantOfShape", 13, {cst(i64({2}, {2, 2}))},
                                        attrs({{"value", Attribute::ofTensor(i32({1}, {7}))}}),
                                        {i32({2, 2}, {7, 7, 7, 7})}});
    addCase("constant of shape default", {"ConstantOfShape", 13, {cst(i64({1}, {3}))}, {}, {f32({3}, {0, 0, 0})}});
    addCase("range int32", {"Range", 13, {cst(i32({}, {5})), cst(i32({}, {1})), cst(i32({}, {-2}))}, {},
                            {i32({2}, {5, 3})}});
    addCase("range float", {"Range", 13, {cst(f32({}, {0})), cst(f32({}, {1})), cst(f32({}, {0.25}))}, {},
                            {f32({4}, {0, 0.25, 0.5, 0.75})}});
    addCase("eye like k", {"EyeLike", 13, {in(f32({2, 3}, Values(6, 0.0)))}, attrs({{"k", one(1)}}),
                           {f32({2, 3}, {0, 1, 0, 0, 0, 1})}});
    addCase("eye like dtype", {"EyeLike", 13, {in(f32({2, 2}, Values(4, 0.0)))}, attrs({{"dtype", one(7)}}),
                               {i64({2, 2}, {1, 0, 0, 1})}});
    addCase("one hot last axis", {"OneHot", 13, {in(i64({3}, {0, 2, -1})), cst(i64({}, {3})), in(f32({2}, {0, 5}))}, {},
                                  {f32({3, 3}, {5, 0, 0, 0, 0, 5, 0, 0, 5})}});
    addCase("one hot axis 0", {"OneHot", 13, {in(i64({3}, {0, 2, 3})), cst(f32({}, {3})), in(i32({2}, {-1, 1}))},
                               attrs({{"axis", one(0)}}), {i32({3, 3}, {1, -1, -1, -1, -1, -1, -1, 1, -1})}});
}

void TestOpsTensor::selection_data()
{
    QTest::addColumn<Case>("c");
    const TensorData m = f32({2, 3}, {1, 5, 5, 7, 2, 7});
    addCase("argmax", {"ArgMax", 13, {in(m)}, attrs({{"axis", one(1)}}), {i64({2, 1}, {1, 0})}});
    addCase("argmax last index", {"ArgMax", 13, {in(m)}, attrs({{"axis", one(1)}, {"select_last_index", one(1)}}),
                                  {i64({2, 1}, {2, 2})}});
    addCase("argmin no keepdims", {"ArgMin", 13, {in(m)}, attrs({{"keepdims", one(0)}}), {i64({3}, {0, 1, 0})}});
    const TensorData t = f32({2, 3}, {1, 5, 3, 4, 4, 2});
    addCase("topk largest", {"TopK", 13, {in(t), cst(i64({1}, {2}))}, {},
                             {f32({2, 2}, {5, 3, 4, 4}), i64({2, 2}, {1, 2, 0, 1})}});
    addCase("topk smallest", {"TopK", 13, {in(t), cst(i64({1}, {2}))}, attrs({{"largest", one(0)}}),
                              {f32({2, 2}, {1, 3, 2, 4}), i64({2, 2}, {0, 2, 2, 0})}});
    addCase("topk attribute opset 9", {"TopK", 9, {in(t)}, attrs({{"k", one(1)}}),
                                       {f32({2, 1}, {5, 4}), i64({2, 1}, {1, 0})}});
    addCase("topk axis 0 int32", {"TopK", 13, {in(i32({2, 2}, {1, 9, 3, 2})), cst(i64({1}, {1}))}, attrs({{"axis", one(0)}}),
                                  {i32({1, 2}, {3, 9}), i64({1, 2}, {1, 0})}});
    addCase("nonzero", {"NonZero", 13, {cst(f32({2, 2}, {0, 2, 3, 0}))}, {}, {i64({2, 2}, {0, 1, 1, 0})}});
    addCase("compress axis 0", {"Compress", 13, {in(f32({3, 2}, {1, 2, 3, 4, 5, 6})), cst(boolean({3}, {0, 1, 1}))},
                                attrs({{"axis", one(0)}}), {f32({2, 2}, {3, 4, 5, 6})}});
    addCase("compress flattened", {"Compress", 13, {in(f32({3, 2}, {1, 2, 3, 4, 5, 6})), cst(boolean({4}, {1, 0, 0, 1}))},
                                   {}, {f32({2}, {1, 4})}});
    const TensorData v = f32({4}, {1, 2, 3, 4});
    const TensorData axis0 = i64({}, {0});
    addCase("cumsum", {"CumSum", 13, {in(v), in(axis0)}, {}, {f32({4}, {1, 3, 6, 10})}});
    addCase("cumsum exclusive", {"CumSum", 13, {in(v), in(axis0)}, attrs({{"exclusive", one(1)}}), {f32({4}, {0, 1, 3, 6})}});
    addCase("cumsum reverse", {"CumSum", 13, {in(v), in(axis0)}, attrs({{"reverse", one(1)}}), {f32({4}, {10, 9, 7, 4})}});
    addCase("cumsum reverse exclusive", {"CumSum", 13, {in(v), in(axis0)},
                                         attrs({{"reverse", one(1)}, {"exclusive", one(1)}}), {f32({4}, {9, 7, 4, 0})}});
    addCase("cumsum int32 axis -1", {"CumSum", 13, {in(i32({2, 2}, {1, 2, 3, 4})), in(i32({}, {-1}))}, {},
                                     {i32({2, 2}, {1, 3, 3, 7})}});
    const TensorData square = f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    addCase("triu", {"Trilu", 14, {in(square)}, {}, {f32({3, 3}, {1, 2, 3, 0, 5, 6, 0, 0, 9})}});
    addCase("tril k -1", {"Trilu", 14, {in(square), in(i64({}, {-1}))}, attrs({{"upper", one(0)}}),
                          {f32({3, 3}, {0, 0, 0, 4, 0, 0, 7, 8, 0})}});
    addCase("triu k 1", {"Trilu", 14, {in(square), in(i64({}, {1}))}, {}, {f32({3, 3}, {0, 2, 3, 0, 0, 6, 0, 0, 0})}});
}

// Data movement copies element bytes: int64 beyond 2^53 and float16 bit patterns survive.
void TestOpsTensor::dataMovementKeepsBytesExact()
{
    const int64_t big = (int64_t{1} << 53) + 1;
    const TensorData values = TensorData::fromInts(DType::Int64, {3}, {big, -big, big + 2});
    const TensorData gathered = run("Gather", {in(values), in(i64({2}, {2, 0}))}).front();
    QCOMPARE(gathered.getInt(0), big + 2);
    QCOMPARE(gathered.getInt(1), big);
    const TensorData sliced = run("Slice", {in(values), cst(i64({1}, {1})), cst(i64({1}, {3}))}).front();
    QCOMPARE(sliced.getInt(0), -big);

    TensorData half(DType::Float16, {2, 2});
    const uint16_t bits[4] = {0x3c00, 0x7e01, 0x8001, 0xfbff}; // 1, a NaN payload, -denormal, -max
    std::memcpy(half.bytes(), bits, sizeof bits);
    const TensorData transposed = run("Transpose", {in(half)}).front();
    const uint16_t* out = transposed.data<uint16_t>();
    QCOMPARE(out[0], uint16_t{0x3c00});
    QCOMPARE(out[1], uint16_t{0x8001});
    QCOMPARE(out[2], uint16_t{0x7e01});
    QCOMPARE(out[3], uint16_t{0xfbff});
}

// Static inference knows only constants: a Reshape whose shape is a runtime input cannot be typed.
void TestOpsTensor::staticInferenceNeedsConstantShape()
{
    GraphBuilder builder("g", 17);
    const TensorId x = builder.input("x", DType::Float32, {2, 3});
    const TensorId shape = builder.constant("shape", i64({1}, {6}));
    builder.output(builder.op("Reshape", {x, shape}, {}, "r"));
    Graph graph = builder.finish();
    graph.tensor(shape).constant.reset();
    graph.inputs.push_back(shape);
    expectError<ShapeError>([&] { inferShapes(graph); }, "input 1 (shape) must be a constant");
}

void TestOpsTensor::constantShapeTypesStatically()
{
    GraphBuilder builder("g", 18);
    const TensorId x = builder.input("x", DType::Int8, {2, 3, 4});
    const TensorId starts = builder.constant("starts", i64({1}, {-1}));
    const TensorId ends = builder.constant("ends", i64({1}, {0}));
    const TensorId axes = builder.constant("axes", i64({1}, {1}));
    const TensorId steps = builder.constant("steps", i64({1}, {-1}));
    const TensorId sliced = builder.op("Slice", {x, starts, ends, axes, steps}, {}, "s");
    QCOMPARE(shapeToString(builder.tensor(sliced).shape), std::string("[2, 2, 4]"));
    const std::vector<TensorId> parts =
        builder.node("Split", {sliced}, attrs({{"axis", one(2)}, {"num_outputs", one(3)}}), 3, "p");
    // Four elements in three parts: ceil(4 / 3) = 2 each, the last part takes what is left.
    QCOMPARE(shapeToString(builder.tensor(parts[0]).shape), std::string("[2, 2, 2]"));
    QCOMPARE(shapeToString(builder.tensor(parts[1]).shape), std::string("[2, 2, 2]"));
    QCOMPARE(shapeToString(builder.tensor(parts[2]).shape), std::string("[2, 2, 0]"));
    QCOMPARE(builder.tensor(parts[1]).dtype, DType::Int8);
}

void TestOpsTensor::reshapeErrors()
{
    const TensorData x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(i64({2}, {4, -1}))}); },
                            "Reshape cannot turn [2, 3] (6 elements) into [4, -1]");
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(i64({2}, {-1, -1}))}); }, "at most one dimension may be -1");
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(i64({3}, {1, 1, 7}))}); }, "element counts differ");
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(i64({3}, {0, 0, 0}))}); },
                            "copies an input dimension the input does not have");
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(i64({2}, {-2, -3}))}); }, "is invalid");
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(f32({1}, {6}))}); }, "must be int64 or int32");
    expectError<ShapeError>([&] { run("Expand", {in(x), cst(i64({2}, {4, 3}))}); }, "cannot be broadcast");
    expectError<ShapeError>([&] { run("Tile", {in(x), cst(i64({1}, {2}))}); }, "repeats has 1 values");
    expectError<ShapeError>([&] { run("DepthToSpace", {in(f32({1, 3, 1, 1}, {1, 2, 3}))}, attrs({{"blocksize", one(2)}})); },
                            "not a multiple of blocksize^2");
}

void TestOpsTensor::axisErrors()
{
    const TensorData x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    expectError<ShapeError>([&] { run("Concat", {in(x), in(x)}, attrs({{"axis", one(3)}})); },
                            "axis 3 is out of range for rank 2");
    expectError<ShapeError>([&] { run("Concat", {in(x), in(f32({3, 2}, {1, 2, 3, 4, 5, 6}))}, attrs({{"axis", one(0)}})); },
                            "they may differ only in axis 0");
    expectError<ShapeError>([&] { run("Gather", {in(x), in(i64({1}, {0}))}, attrs({{"axis", one(-3)}})); },
                            "axis -3 is out of range for rank 2");
    expectError<ShapeError>([&] { run("Flatten", {in(x)}, attrs({{"axis", one(-1)}}), 10); }, "axis -1 is out of range");
    expectError<ShapeError>([&] { run("Squeeze", {in(x), cst(i64({1}, {0}))}, {}, 13); },
                            "cannot squeeze axis 0 of shape [2, 3]");
    expectError<ShapeError>([&] { run("Unsqueeze", {in(x), cst(i64({2}, {1, -3}))}, {}, 13); }, "appears twice");
    expectError<ShapeError>([&] { run("Transpose", {in(x)}, attrs({{"perm", ints({0, 0})}})); }, "is not a permutation");
    expectError<ShapeError>([&] { run("ArgMax", {in(x)}, attrs({{"axis", one(2)}})); }, "axis 2 is out of range for rank 2");
    expectError<ShapeError>([&] { run("CumSum", {in(x), in(i64({}, {5}))}); }, "axis 5 is out of range for rank 2");
}

void TestOpsTensor::indexErrors()
{
    const TensorData x = f32({3}, {1, 2, 3});
    expectError<ShapeError>([&] { run("Gather", {in(x), in(i64({2}, {0, 3}))}); },
                            "index 3 is out of range for axis 0 of size 3");
    expectError<ShapeError>([&] { run("Gather", {in(x), in(i64({1}, {-4}))}); }, "index -4 is out of range");
    expectError<ShapeError>([&] { run("Gather", {in(f32({0}, {})), in(i64({1}, {0}))}); }, "out of range for axis 0 of size 0");
    expectError<ShapeError>([&] { run("GatherElements", {in(x), in(i64({1}, {7}))}); }, "index 7 is out of range");
    expectError<ShapeError>([&] { run("GatherND", {in(x), in(i64({1, 1}, {-9}))}); }, "index -9 is out of range");
    expectError<ShapeError>([&] { run("ScatterND", {in(x), in(i64({1, 1}, {3})), in(f32({1}, {0}))}); },
                            "index 3 is out of range");
    expectError<ShapeError>([&] { run("ScatterElements", {in(x), in(i64({1}, {100})), in(f32({1}, {0}))}); },
                            "index 100 is out of range");
    expectError<ShapeError>([&] { run("Gather", {in(x), in(f32({1}, {0}))}); }, "must be int64 or int32");
    expectError<ShapeError>([&] { run("ScatterND", {in(x), in(i64({1, 1}, {0})), in(f32({2}, {0, 0}))}); },
                            "must have shape [1]");
}

void TestOpsTensor::parameterErrors()
{
    const TensorData x = f32({6}, {1, 2, 3, 4, 5, 6});
    expectError<ShapeError>([&] { run("Split", {in(x), cst(i64({2}, {2, 3}))}, {}, 13, 2); }, "add up to 5");
    expectError<ShapeError>([&] { run("Split", {in(x)}, attrs({{"num_outputs", one(0)}}), 18, 1); },
                            "num_outputs must be at least 1");
    expectError<ShapeError>([&] { run("Slice", {in(x), cst(i64({1}, {0})), cst(i64({1}, {3})), absent(), cst(i64({1}, {0}))}); },
                            "steps must not be 0");
    expectError<ShapeError>([&] { run("Slice", {in(x), cst(i64({2}, {0, 0})), cst(i64({1}, {3}))}); },
                            "starts has 2 values, ends has 1");
    expectError<ShapeError>([&] { run("Pad", {in(x), cst(i64({2}, {-4, -4}))}); }, "remove more than dimension 0");
    expectError<ShapeError>([&] { run("Pad", {in(x), cst(i64({4}, {1, 1, 1, 1}))}); }, "pads has 4 values");
    expectError<ShapeError>([&] { run("Pad", {in(x), cst(i64({2}, {1, 1}))}, attrs({{"mode", Attribute::ofString("mirror")}})); },
                            "mode 'mirror' is not supported");
    expectError<ShapeError>([&] { run("TopK", {in(x), cst(i64({1}, {7}))}); }, "k = 7 must be between 0 and the size 6");
    expectError<ShapeError>([&] { run("Range", {cst(f32({}, {0})), cst(f32({}, {1})), cst(f32({}, {0}))}); },
                            "delta must be a finite non-zero number");
    expectError<ShapeError>([&] { run("OneHot", {in(i64({1}, {0})), cst(i64({}, {0})), in(f32({2}, {0, 1}))}); },
                            "depth must be a positive count");
    expectError<ShapeError>([&] { run("ScatterND", {in(x), in(i64({1, 1}, {0})), in(f32({1}, {0}))},
                                      attrs({{"reduction", Attribute::ofString("max")}}), 16); },
                            "reduction 'max' is not supported at opset 16");
    expectError<ShapeError>([&] { run("Compress", {in(x), cst(boolean({8}, {0, 0, 0, 0, 0, 0, 0, 1}))}, attrs({{"axis", one(0)}})); },
                            "condition selects entry 7");
    expectError<ShapeError>([&] { run("ConstantOfShape", {cst(i64({1}, {-2}))}); }, "negative dimension");
}

// Extreme integers in parameters are clamped or rejected with a message, never overflow.
void TestOpsTensor::absurdValuesFailCleanly()
{
    const double lowest = kInt64Min;
    const double highest = 9223372036854775807.0; // converts to INT64_MAX
    const TensorData x = f32({5}, {0, 1, 2, 3, 4});
    compare(run("Slice", {in(x), cst(i64({1}, {highest})), cst(i64({1}, {lowest})), absent(), cst(i64({1}, {lowest}))})
                .front(),
            f32({1}, {4}));
    compare(run("Slice", {in(x), cst(i64({1}, {lowest})), cst(i64({1}, {highest})), absent(), cst(i64({1}, {highest}))})
                .front(),
            f32({1}, {0}));
    expectError<ShapeError>([&] { run("Tile", {in(x), cst(i64({1}, {highest}))}); }, "larger than Tessera supports");
    expectError<ShapeError>([&] { run("Reshape", {in(x), cst(i64({2}, {highest, highest}))}); },
                            "larger than Tessera supports");
    expectError<ShapeError>([&] { run("Pad", {in(x), cst(i64({2}, {lowest, 0}))}); }, "out of range");
    expectError<ShapeError>([&] { run("Range", {cst(i64({}, {lowest})), cst(i64({}, {highest})), cst(i64({}, {1}))}); },
                            "more elements than Tessera supports");
    expectError<ShapeError>([&] { run("Expand", {in(x), cst(i64({3}, {1 << 20, 1 << 20, 5}))}); },
                            "more elements than Tessera supports");
    expectError<ShapeError>([&] { run("OneHot", {in(i64({1}, {0})), cst(f32({}, {1e30})), in(f32({2}, {0, 1}))}); },
                            "depth must be a positive count");
    expectError<ShapeError>([&] { run("Gather", {in(x), in(i64({1}, {lowest}))}); }, "is out of range for axis 0");
    expectError<ShapeError>([&] { run("TopK", {in(x), cst(i64({1}, {lowest}))}); }, "must be between 0");
    expectError<ShapeError>([&] { run("Split", {in(x), cst(i64({2}, {highest, 2}))}, {}, 13, 2); }, "exceed dimension 5");
}

QTEST_GUILESS_MAIN(TestOpsTensor)
#include "tst_ops_tensor.moc"
