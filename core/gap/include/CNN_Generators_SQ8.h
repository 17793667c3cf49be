/* The header NNTool's model programs include for the 8-bit generators, as in the SDK: Tessera's
 * generators (CNN_Generators.h, whose SQ8 part has the SDK's signatures) and the copy generators
 * (CNN_Copy_Generators.h). */
#ifndef TESSERA_CNN_GENERATORS_SQ8_H
#define TESSERA_CNN_GENERATORS_SQ8_H

#include "CNN_Copy_Generators.h"
#include "CNN_Generators.h"

#endif
