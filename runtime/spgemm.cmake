# runtime/spgemm.c calls gMAGNUS (runtime/gmagnus_spgemm.c) through a weak reference until
# that file exists; then through a strong one, so that static archives (magnus_internal) pull
# the gMAGNUS object in (a weak reference alone would not).
if(EXISTS ${PROJECT_SOURCE_DIR}/runtime/gmagnus_spgemm.c)
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/runtime/spgemm.c APPEND PROPERTY
               COMPILE_DEFINITIONS MAGNUS_HAVE_GMAGNUS=1)
endif()
