// Layering fixture: a low module that wrongly includes a header of the module above it.
#pragma once
#include "high/high.h"
inline int low() { return 1; }
