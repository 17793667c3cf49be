#include "scamp/kernel_by_kernel.h"

#include "scamp/reverse_search.h"

#include <algorithm>

namespace tessera::scamp {

std::optional<Program> compileKernelByKernel(const KernelSet& set, const ApproximatedKernels& kernels,
                                             const KernelByKernelOptions& options)
{
    // Kernels writing other registers first; the one writing the input's register (it destroys
    // the input) last.
    std::vector<size_t> order;
    for (size_t k = 0; k < set.kernels.size(); ++k)
        if (set.kernels[k].outputRegister != set.inputRegister)
            order.push_back(k);
    for (size_t k = 0; k < set.kernels.size(); ++k)
        if (set.kernels[k].outputRegister == set.inputRegister)
            order.push_back(k);

    Program program;
    std::vector<std::string> done;  // output registers already written, not to be touched again
    for (size_t position = 0; position < order.size(); ++position) {
        const size_t k = order[position];
        const bool last = position + 1 == order.size();
        KernelSet part;
        part.name = set.name + " kernel " + std::to_string(k);
        part.inputRegister = set.inputRegister;
        part.registers.clear();
        for (const std::string& r : set.registers)
            if (std::find(done.begin(), done.end(), r) == done.end())
                part.registers.push_back(r);
        part.kernels.push_back(set.kernels[k]);
        ApproximatedKernels goals;
        goals.depth = kernels.depth;
        goals.goals.push_back(kernels.goals[k]);
        goals.errors.push_back(kernels.errors[k]);
        if (!last) {
            // Keep the input where it is for the kernels still to come.
            part.kernels.push_back({set.inputRegister, 1.0, {{1.0}}});
            goals.goals.push_back(kernels.input());
            goals.errors.push_back(0.0);
        }
        SearchOptions search;
        search.allOps = options.allOps;
        search.nodeLimit = options.nodesPerKernel;
        search.seconds = options.secondsPerKernel;
        search.seed = options.seed;
        search.cancel = options.cancel;
        search.kernelByKernelFallback = false;
        const CompileResult result = compileKernels(part, goals, search);
        if (!result.best)
            return std::nullopt;
        program.instructions.insert(program.instructions.end(), result.best->instructions.begin(),
                                    result.best->instructions.end());
        done.push_back(set.kernels[k].outputRegister);
    }
    return program;
}

} // namespace tessera::scamp
