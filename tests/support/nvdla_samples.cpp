#include "nvdla_samples.h"

#include "nvdla/feature_layout.h"
#include "nvdla/loadable_builder.h"

#include "base/error.h"

namespace tessera::testing {

using namespace nvdla;

Loadable sampleLoadable()
{
    constexpr unsigned atom = 32, fp16 = 2;
    LoadableBuilder builder;
    const FeatureLayout input = featureLayout(8, 8, 4, fp16, atom);
    const FeatureLayout convolved = featureLayout(8, 8, 8, fp16, atom);
    const FeatureLayout pooled = featureLayout(1, 1, 8, fp16, atom);

    TensorDesc data;
    data.name = "data";
    data.size = input.bytes;
    data.dataFormat = kDataFormatNcxhwx;
    data.dataType = kDataTypeHalf;
    data.dataCategory = kDataCategoryFeature;
    data.pixelFormat = kPixelFormatFeature;
    data.n = 1, data.c = 4, data.h = 8, data.w = 8;
    data.strides[1] = std::uint32_t(input.lineStride);
    data.strides[2] = std::uint32_t(input.surfaceStride);
    const std::uint16_t inputMemory = builder.addBoundMemory(true, data, atom);
    TensorDesc prob = data;
    prob.name = "prob";
    prob.size = 8 * fp16;
    prob.dataFormat = kDataFormatNchw;
    prob.c = 8, prob.h = 1, prob.w = 1;
    const std::uint16_t outputMemory = builder.addBoundMemory(false, prob, atom);

    std::vector<std::uint8_t> weights(8 * 4 * 3 * 3 * fp16, 0x3c);
    const std::uint16_t weightMemory = builder.addConstantMemory("weights-conv1", weights, 256);
    std::vector<std::uint8_t> bias(8 * fp16, 0);
    const std::uint16_t biasMemory = builder.addConstantMemory("bias-conv1", bias, 256);
    const std::uint16_t scratch = builder.addMemory(convolved.bytes + pooled.bytes, 256);

    const std::uint16_t inputAddress = builder.addAddress(inputMemory, 0, input.bytes);
    const std::uint16_t outputAddress = builder.addAddress(outputMemory, 0, prob.size);
    const std::uint16_t weightAddress = builder.addAddress(weightMemory, 0, weights.size());
    const std::uint16_t biasAddress = builder.addAddress(biasMemory, 0, bias.size());
    const std::uint16_t convolvedAddress = builder.addAddress(scratch, 0, convolved.bytes);
    const std::uint16_t pooledAddress = builder.addAddress(scratch, convolved.bytes, pooled.bytes);

    DlaTaskBuilder& dla = builder.addDlaTask();
    const int conv = dla.addOperation(DlaOp::Conv);
    {
        Record op = dla.opDesc(conv);
        op.set("data_format", 36);
        op.set("input_width_csc", 8), op.set("input_height_csc", 8), op.set("input_channel_csc", 4);
        op.set("kernel_width_csc", 3), op.set("kernel_height_csc", 3), op.set("kernel_channel_csc", 4);
        op.set("input_width_cmac", 8), op.set("input_height_cmac", 8);
        op.set("bytes_per_kernel", 4 * 3 * 3 * fp16);
        op.set("conv_stride_x", 1), op.set("conv_stride_y", 1);
        op.set("pad_x_left", 1), op.set("pad_x_right", 1), op.set("pad_y_top", 1), op.set("pad_y_bottom", 1);
        op.set("dilation_x", 1), op.set("dilation_y", 1);
        op.set("in_precision", kPrecisionFp16), op.set("out_precision", kPrecisionFp16);
        op.set("data_bank", 1), op.set("weight_bank", 1), op.set("batch", 1);
        op.set("entry_per_slice", 2), op.set("fetch_grain", 1), op.set("release", 8), op.set("out_cvt.scale", 1);
        Record surface = dla.surfaceDesc(conv);
        setCube(surface, "src_data", kMemoryMc, dla.addressIndex(inputAddress), 0, input);
        surface.set("weight_data.type", kMemoryMc);
        surface.set("weight_data.address", dla.addressIndex(weightAddress));
        surface.set("weight_data.size", std::int64_t(weights.size()));
        surface.set("weight_data.width", 3), surface.set("weight_data.height", 3), surface.set("weight_data.channel", 4);
        setCube(surface, "dst_data", kMemoryHw, -1, 0, convolved);
    }
    const int sdp = dla.addOperation(DlaOp::Sdp);
    {
        Record op = dla.opDesc(sdp);
        op.set("src_precision", kPrecisionFp16), op.set("dst_precision", kPrecisionFp16), op.set("batch_num", 1);
        op.set("x1_op.enable", 1), op.set("x1_op.type", 2), op.set("x1_op.mode", 1), op.set("x1_op.act", 1);
        op.set("x1_op.precision", kPrecisionFp16);
        Record surface = dla.surfaceDesc(sdp);
        setCube(surface, "src_data", kMemoryHw, -1, 0, convolved);
        surface.set("x1_data.type", kMemoryMc);
        surface.set("x1_data.address", dla.addressIndex(biasAddress));
        surface.set("x1_data.size", std::int64_t(bias.size()));
        surface.set("x1_data.width", 1), surface.set("x1_data.height", 1), surface.set("x1_data.channel", 8);
        setCube(surface, "dst_data", kMemoryMc, dla.addressIndex(convolvedAddress), 0, convolved);
    }
    dla.fuse(sdp, conv);
    const int pdp = dla.addOperation(DlaOp::Pdp);
    {
        Record op = dla.opDesc(pdp);
        op.set("partial_in_width_first", 8), op.set("partial_width_first", 1);
        op.set("pool_mode", 1), op.set("pool_width", 7), op.set("pool_height", 7);
        op.set("stride_x", 8), op.set("stride_y", 8), op.set("precision", kPrecisionFp16);
        Record surface = dla.surfaceDesc(pdp);
        setCube(surface, "src_data", kMemoryMc, dla.addressIndex(convolvedAddress), 0, convolved);
        setCube(surface, "dst_data", kMemoryMc, dla.addressIndex(pooledAddress), 0, pooled);
    }
    dla.dependsOn(pdp, sdp);

    EmuTaskBuilder& emu = builder.addEmuTask();
    const int softmax = emu.addOperation(kEmuOpSoftmax);
    emu.opDesc(softmax).set("axis", 1);
    for (const bool source : {true, false}) {
        Record buffer = source ? emu.sourceBuffer(softmax) : emu.destinationBuffer(softmax);
        buffer.set("addressIndex", emu.addressIndex(source ? pooledAddress : outputAddress));
        buffer.set("size", source ? std::int64_t(pooled.bytes) : std::int64_t(prob.size));
        buffer.set("format", kEmuFormatFp16);
        buffer.set("width", 1), buffer.set("height", 1), buffer.set("channel", 8);
        buffer.set("line_stride", source ? std::int64_t(pooled.lineStride) : 8 * fp16);
        buffer.set("surf_stride", source ? std::int64_t(pooled.surfaceStride) : 8 * fp16);
    }
    return builder.finish();
}

std::span<std::uint8_t> blobBytes(nvdla::Loadable& loadable, const std::string& name)
{
    for (nvdla::LoadableBlob& blob : loadable.blobs)
        if (blob.name == name)
            return blob.data;
    throw Error("no blob " + name);
}

nvdla::Record common(nvdla::Loadable& loadable, int op)
{
    const nvdla::DlaInterface& dla = nvdla::currentDlaInterface();
    return nvdla::Record(dla.commonOpDesc,
                         blobBytes(loadable, "task-0-dep_graph").subspan(std::size_t(op) * dla.commonOpDesc.size));
}

nvdla::Record surface(nvdla::Loadable& loadable, int op, nvdla::DlaOp type)
{
    const nvdla::DlaInterface& dla = nvdla::currentDlaInterface();
    return nvdla::Record(dla.surfaceDesc.at(type), blobBytes(loadable, "task-0-surf_list")
                                                       .subspan(std::size_t(op) * dla.surfaceContainerSize.size));
}

nvdla::Record operation(nvdla::Loadable& loadable, int op, nvdla::DlaOp type)
{
    const nvdla::DlaInterface& dla = nvdla::currentDlaInterface();
    return nvdla::Record(dla.opDesc.at(type),
                         blobBytes(loadable, "task-0-op_list").subspan(std::size_t(op) * dla.opContainerSize.size));
}

nvdla::Record network(nvdla::Loadable& loadable)
{
    return nvdla::Record(nvdla::currentDlaInterface().networkDesc, blobBytes(loadable, "task-0-addr0"));
}

bool hasFinding(const std::vector<nvdla::Finding>& findings, const std::string& where, const std::string& message)
{
    for (const nvdla::Finding& finding : findings)
        if (finding.severity == nvdla::Finding::Severity::Error && finding.where.find(where) != std::string::npos &&
            finding.message.find(message) != std::string::npos)
            return true;
    return false;
}

}  // namespace tessera::testing
