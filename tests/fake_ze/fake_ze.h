/*
 * A fake Level Zero driver for tests: a shared library that the real loader
 * (libze_loader.so.1) loads in place of Intel's driver when ZE_ENABLE_ALT_DRIVERS names it.
 * It reports GPUs whose properties come from environment variables, so a test can make the
 * machine look like, say, a Data Center GPU Max (PVC) and check what magnus probes:
 *
 *   FAKE_ZE_DEVICE_NAME     device name                      (default "Fake Level Zero GPU")
 *   FAKE_ZE_DEVICE_COUNT    devices of the driver, 1..4      (default 1)
 *   FAKE_ZE_LOCAL_MEM       maxSharedLocalMemory, bytes      (default 65536)
 *   FAKE_ZE_GLOBAL_MEM      device memory, bytes             (default 1 GiB)
 *   FAKE_ZE_COMPUTE_UNITS   Xe-cores (slices x sub-slices)   (default 8)
 *   FAKE_ZE_SUBGROUPS       subgroup sizes, e.g. "16,32"     (default "8,16,32")
 *   FAKE_ZE_FP64, FAKE_ZE_ATOMIC64   0 or 1                  (default 1)
 *   FAKE_ZE_FAIL_AT         init | driverget | deviceget | properties | none
 *                           makes that step fail (init: ZE_RESULT_ERROR_UNINITIALIZED, the
 *                           others: ZE_RESULT_ERROR_DEVICE_LOST)
 * The environment is read once, at the driver's zeInit.
 *
 * Layout (one job per file, so the driver can grow to execute kernels):
 *   gen_tables.cmake      generates the exported <prefix>Get<Name>ProcAddrTable getters
 *   fake_ze_tables.c      fills the tables the fake implements (fake_ze_fill_<prefix>_<Name>)
 *   fake_ze_device.c      configuration, zeInit, drivers, devices and their properties
 */
#ifndef FAKE_ZE_H
#define FAKE_ZE_H

#include <stdbool.h>
#include <stdint.h>

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#define FAKE_ZE_MAX_DEVICES 4

typedef enum fake_ze_fail_at {
    FAKE_ZE_FAIL_NONE = 0,
    FAKE_ZE_FAIL_INIT,
    FAKE_ZE_FAIL_DRIVERGET,
    FAKE_ZE_FAIL_DEVICEGET,
    FAKE_ZE_FAIL_PROPERTIES
} fake_ze_fail_at;

typedef struct fake_ze_config {
    char device_name[ZE_MAX_DEVICE_NAME];
    uint32_t device_count;
    uint32_t local_mem_bytes;
    uint64_t global_mem_bytes;
    uint32_t compute_units;
    uint32_t subgroup_sizes[ZE_SUBGROUPSIZE_COUNT];
    uint32_t num_subgroup_sizes;
    bool fp64, atomic64;
    fake_ze_fail_at fail_at;
} fake_ze_config;

/* Handles are the fake's own structs; the magic catches foreign or stale handles. */
#define FAKE_ZE_MAGIC_DRIVER 0x66616b657a656472ULL /* "fakezedr" */
#define FAKE_ZE_MAGIC_DEVICE 0x66616b657a656476ULL /* "fakezedv" */
struct _ze_driver_handle_t {
    uint64_t magic;
};
struct _ze_device_handle_t {
    uint64_t magic;
    uint32_t index;
};

/* The configuration read from the environment at zeInit (defaults before). */
const fake_ze_config *fake_ze_config_get(void);

/* Common checks of every table getter: a table to fill and an API version the fake's tables
 * (compiled from these headers) are not larger than. */
ze_result_t fake_ze_table_check(ze_api_version_t version, const void *table);

/* The implemented entry points (fake_ze_device.c), named fake_* so nothing here interposes
 * on the loader's own exported ze* symbols. */
ze_result_t ZE_APICALL fake_zeInit(ze_init_flags_t flags);
ze_result_t ZE_APICALL fake_zeDriverGet(uint32_t *count, ze_driver_handle_t *drivers);
ze_result_t ZE_APICALL fake_zeDriverGetApiVersion(ze_driver_handle_t driver, ze_api_version_t *version);
ze_result_t ZE_APICALL fake_zeDriverGetProperties(ze_driver_handle_t driver,
                                                  ze_driver_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGet(ze_driver_handle_t driver, uint32_t *count,
                                        ze_device_handle_t *devices);
ze_result_t ZE_APICALL fake_zeDeviceGetProperties(ze_device_handle_t device,
                                                  ze_device_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetComputeProperties(ze_device_handle_t device,
                                                         ze_device_compute_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetModuleProperties(ze_device_handle_t device,
                                                        ze_device_module_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetMemoryProperties(ze_device_handle_t device, uint32_t *count,
                                                        ze_device_memory_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t device, uint32_t *count, ze_command_queue_group_properties_t *props);

#endif
