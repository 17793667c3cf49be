// Layering fixture: a high module using the low one, as it declares.
#pragma once
#include "low/low.h"
inline int high() { return low() + 1; }
