#include "ir/op_shapes/op_shapes.h"

namespace tessera {

void registerNnShapes(ShapeRuleTable& rules)
{
    (void)rules;
}

} // namespace tessera
