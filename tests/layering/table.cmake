# Layering fixture: module 'high' uses 'low'; 'low' uses nothing, yet low/low.h includes high/high.h.
# The layering check must report that include and nothing else (tests/CMakeLists.txt, core_layering_catches).
set(TESSERA_LAYERING_ROOT "${CMAKE_CURRENT_LIST_DIR}")
set(TESSERA_LAYERING_MODULES "low;high")
set(TESSERA_LAYERING_low_SOURCES "${CMAKE_CURRENT_LIST_DIR}/low/low.h")
set(TESSERA_LAYERING_low_USES "")
set(TESSERA_LAYERING_high_SOURCES "${CMAKE_CURRENT_LIST_DIR}/high/high.h")
set(TESSERA_LAYERING_high_USES "low")
