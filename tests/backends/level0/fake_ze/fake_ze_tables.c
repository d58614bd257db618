/*
 * The tables the fake driver implements (one fill function per table, named after its
 * getter). The generated getters (gen_tables.cmake) zero every table and call the fill
 * function of that table when one is defined here; entries left NULL make the loader answer
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE. Everything magnus's backend calls is here, plus regular
 * command lists, command queues, fences and kernel timestamps for tests of the fake itself.
 */
#include "fake_ze.h"

ze_result_t fake_ze_table_check(ze_api_version_t version, const void *table) {
    if (!table) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    /* The getters write whole tables of this header's size: an older caller's smaller table
     * would overflow. A newer caller's larger table only keeps its extra entries. */
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT) ||
        ZE_MINOR_VERSION(version) < ZE_MINOR_VERSION(ZE_API_VERSION_CURRENT))
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    return ZE_RESULT_SUCCESS;
}

void fake_ze_fill_ze_Global(ze_global_dditable_t *table) {
    table->pfnInit = fake_zeInit;
}

void fake_ze_fill_ze_Driver(ze_driver_dditable_t *table) {
    table->pfnGet = fake_zeDriverGet;
    table->pfnGetApiVersion = fake_zeDriverGetApiVersion;
    table->pfnGetProperties = fake_zeDriverGetProperties;
}

void fake_ze_fill_ze_Device(ze_device_dditable_t *table) {
    table->pfnGet = fake_zeDeviceGet;
    table->pfnGetProperties = fake_zeDeviceGetProperties;
    table->pfnGetComputeProperties = fake_zeDeviceGetComputeProperties;
    table->pfnGetModuleProperties = fake_zeDeviceGetModuleProperties;
    table->pfnGetMemoryProperties = fake_zeDeviceGetMemoryProperties;
    table->pfnGetCommandQueueGroupProperties = fake_zeDeviceGetCommandQueueGroupProperties;
    table->pfnGetGlobalTimestamps = fake_zeDeviceGetGlobalTimestamps;
}

void fake_ze_fill_ze_Context(ze_context_dditable_t *table) {
    table->pfnCreate = fake_zeContextCreate;
    table->pfnDestroy = fake_zeContextDestroy;
}

void fake_ze_fill_ze_EventPool(ze_event_pool_dditable_t *table) {
    table->pfnCreate = fake_zeEventPoolCreate;
    table->pfnDestroy = fake_zeEventPoolDestroy;
}

void fake_ze_fill_ze_Event(ze_event_dditable_t *table) {
    table->pfnCreate = fake_zeEventCreate;
    table->pfnDestroy = fake_zeEventDestroy;
    table->pfnHostSynchronize = fake_zeEventHostSynchronize;
    table->pfnQueryStatus = fake_zeEventQueryStatus;
    table->pfnHostReset = fake_zeEventHostReset;
    table->pfnHostSignal = fake_zeEventHostSignal;
    table->pfnQueryKernelTimestamp = fake_zeEventQueryKernelTimestamp;
}

void fake_ze_fill_ze_Mem(ze_mem_dditable_t *table) {
    table->pfnAllocDevice = fake_zeMemAllocDevice;
    table->pfnAllocHost = fake_zeMemAllocHost;
    table->pfnFree = fake_zeMemFree;
}

void fake_ze_fill_ze_CommandList(ze_command_list_dditable_t *table) {
    table->pfnCreate = fake_zeCommandListCreate;
    table->pfnCreateImmediate = fake_zeCommandListCreateImmediate;
    table->pfnDestroy = fake_zeCommandListDestroy;
    table->pfnClose = fake_zeCommandListClose;
    table->pfnReset = fake_zeCommandListReset;
    table->pfnAppendLaunchKernel = fake_zeCommandListAppendLaunchKernel;
    table->pfnAppendSignalEvent = fake_zeCommandListAppendSignalEvent;
    table->pfnAppendEventReset = fake_zeCommandListAppendEventReset;
    table->pfnAppendBarrier = fake_zeCommandListAppendBarrier;
    table->pfnAppendMemoryCopy = fake_zeCommandListAppendMemoryCopy;
    table->pfnAppendMemoryFill = fake_zeCommandListAppendMemoryFill;
    table->pfnAppendWaitOnEvents = fake_zeCommandListAppendWaitOnEvents;
    table->pfnAppendWriteGlobalTimestamp = fake_zeCommandListAppendWriteGlobalTimestamp;
}

void fake_ze_fill_ze_CommandQueue(ze_command_queue_dditable_t *table) {
    table->pfnCreate = fake_zeCommandQueueCreate;
    table->pfnDestroy = fake_zeCommandQueueDestroy;
    table->pfnExecuteCommandLists = fake_zeCommandQueueExecuteCommandLists;
    table->pfnSynchronize = fake_zeCommandQueueSynchronize;
}

void fake_ze_fill_ze_Fence(ze_fence_dditable_t *table) {
    table->pfnCreate = fake_zeFenceCreate;
    table->pfnDestroy = fake_zeFenceDestroy;
    table->pfnHostSynchronize = fake_zeFenceHostSynchronize;
    table->pfnQueryStatus = fake_zeFenceQueryStatus;
    table->pfnReset = fake_zeFenceReset;
}

void fake_ze_fill_ze_Module(ze_module_dditable_t *table) {
    table->pfnCreate = fake_zeModuleCreate;
    table->pfnDestroy = fake_zeModuleDestroy;
    table->pfnGetKernelNames = fake_zeModuleGetKernelNames;
}

void fake_ze_fill_ze_Kernel(ze_kernel_dditable_t *table) {
    table->pfnCreate = fake_zeKernelCreate;
    table->pfnDestroy = fake_zeKernelDestroy;
    table->pfnSetGroupSize = fake_zeKernelSetGroupSize;
    table->pfnSetArgumentValue = fake_zeKernelSetArgumentValue;
    table->pfnGetProperties = fake_zeKernelGetProperties;
    table->pfnGetName = fake_zeKernelGetName;
    table->pfnSetCacheConfig = fake_zeKernelSetCacheConfig;
}

void fake_ze_fill_ze_ModuleBuildLog(ze_module_build_log_dditable_t *table) {
    table->pfnDestroy = fake_zeModuleBuildLogDestroy;
    table->pfnGetString = fake_zeModuleBuildLogGetString;
}
