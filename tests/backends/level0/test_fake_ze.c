/*
 * The fake Level Zero driver (tests/backends/level0/fake_ze) through the Level Zero API itself, behind the real
 * loader: the parts magnus's backend does not use (regular command lists, command queues,
 * fences, kernel timestamps, kernel properties) and the checks that make the fake worth
 * testing against: arguments captured at append, argument kinds from the SPIR-V, group-size
 * and local-memory limits, misuse reports. The module is magnus's own float32 SPIR-V; its
 * kernel prim_fill_u32(p, offset, n, value, local) writes p[offset + i] = value for i < n, so
 * every expected buffer is a host model of a few fills.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <level_zero/ze_api.h>

extern const unsigned char magnus_spirv_f32[];
extern const size_t magnus_spirv_f32_size;

#define ZE_FUNCTIONS(X)                                                                          \
    X(zeInit) X(zeDriverGet) X(zeDeviceGet) X(zeContextCreate) X(zeContextDestroy)               \
    X(zeMemAllocDevice) X(zeMemAllocHost) X(zeMemFree) X(zeModuleCreate) X(zeModuleDestroy)      \
    X(zeModuleGetKernelNames) X(zeModuleBuildLogGetString) X(zeModuleBuildLogDestroy)            \
    X(zeKernelCreate) X(zeKernelDestroy) X(zeKernelSetGroupSize) X(zeKernelSetArgumentValue)     \
    X(zeKernelGetProperties) X(zeKernelGetName) X(zeCommandListCreate)                           \
    X(zeCommandListCreateImmediate) X(zeCommandListDestroy) X(zeCommandListClose)                \
    X(zeCommandListReset) X(zeCommandListAppendLaunchKernel) X(zeCommandListAppendMemoryFill)    \
    X(zeCommandListAppendMemoryCopy) X(zeCommandListAppendBarrier)                               \
    X(zeCommandListAppendSignalEvent) X(zeCommandQueueCreate) X(zeCommandQueueDestroy)           \
    X(zeCommandQueueExecuteCommandLists) X(zeCommandQueueSynchronize) X(zeFenceCreate)           \
    X(zeFenceDestroy) X(zeFenceHostSynchronize) X(zeFenceQueryStatus) X(zeFenceReset)            \
    X(zeEventPoolCreate) X(zeEventPoolDestroy) X(zeEventCreate) X(zeEventDestroy)                \
    X(zeEventHostSynchronize) X(zeEventQueryKernelTimestamp)

static struct {
#define MEMBER(fn) __typeof__(fn) *fn;
    ZE_FUNCTIONS(MEMBER)
#undef MEMBER
    long (*live_objects)(void);
    long (*misuses)(void);
} ze;

static ze_driver_handle_t driver;
static ze_device_handle_t device;
static ze_context_handle_t context;

#define ZE_OK(call)                                                                              \
    do {                                                                                         \
        ze_result_t r_ = (call);                                                                 \
        cr_assert_eq(r_, ZE_RESULT_SUCCESS, "%s: 0x%x", #call, (unsigned)r_);                    \
    } while (0)

static void *symbol(void *lib, const char *name) {
    void *sym = dlsym(lib, name);
    cr_assert_not_null(sym, "%s: %s", name, dlerror());
    return sym;
}

/* The loader, the fake's counters and a context on its device; skips outside ctest. */
static void open_fake(void) {
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (!alt || access(alt, R_OK) != 0)
        cr_skip_test("ZE_ENABLE_ALT_DRIVERS does not name the fake driver (run under ctest)");
    void *loader = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!loader) cr_skip_test("no Level Zero loader: %s", dlerror());
#define RESOLVE(fn)                                                                              \
    {                                                                                            \
        void *s_ = symbol(loader, #fn);                                                          \
        memcpy(&ze.fn, &s_, sizeof s_);                                                          \
    }
    ZE_FUNCTIONS(RESOLVE)
#undef RESOLVE
    ZE_OK(ze.zeInit(ZE_INIT_FLAG_GPU_ONLY));
    uint32_t n = 1;
    ZE_OK(ze.zeDriverGet(&n, &driver));
    n = 1;
    ZE_OK(ze.zeDeviceGet(driver, &n, &device));
    ze_context_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ZE_OK(ze.zeContextCreate(driver, &desc, &context));
    void *fake = dlopen(alt, RTLD_NOW | RTLD_NOLOAD);
    cr_assert_not_null(fake, "the fake driver is not loaded");
    void *s = symbol(fake, "fake_ze_live_objects");
    memcpy(&ze.live_objects, &s, sizeof s);
    s = symbol(fake, "fake_ze_misuses");
    memcpy(&ze.misuses, &s, sizeof s);
    dlclose(fake);
}

/* Destroys the context and checks that nothing else is left and nothing was misused. */
static void close_fake(long expected_misuses) {
    ZE_OK(ze.zeContextDestroy(context));
    cr_assert_eq(ze.live_objects(), 0, "%ld objects left", ze.live_objects());
    cr_assert_eq(ze.misuses(), expected_misuses, "%ld misuses, expected %ld", ze.misuses(),
                 expected_misuses);
}

static ze_module_handle_t module_create(void) {
    ze_module_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
                             .format = ZE_MODULE_FORMAT_IL_SPIRV,
                             .inputSize = magnus_spirv_f32_size,
                             .pInputModule = magnus_spirv_f32,
                             .pBuildFlags = "-ze-opt-greater-than-4GB-buffer-required"};
    ze_module_handle_t module = NULL;
    ZE_OK(ze.zeModuleCreate(context, device, &desc, &module, NULL));
    return module;
}

static ze_kernel_handle_t kernel_named(ze_module_handle_t module, const char *name) {
    ze_kernel_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = name};
    ze_kernel_handle_t k = NULL;
    ZE_OK(ze.zeKernelCreate(module, &desc, &k));
    return k;
}

/* prim_fill_u32 with its arguments and group size set. */
static ze_kernel_handle_t fill_kernel(ze_module_handle_t module, uint32_t *p, uint64_t offset,
                                      uint64_t n, uint32_t value, uint32_t group) {
    ze_kernel_handle_t k = kernel_named(module, "prim_fill_u32");
    ZE_OK(ze.zeKernelSetGroupSize(k, group, 1, 1));
    ZE_OK(ze.zeKernelSetArgumentValue(k, 0, sizeof p, &p));
    ZE_OK(ze.zeKernelSetArgumentValue(k, 1, 8, &offset));
    ZE_OK(ze.zeKernelSetArgumentValue(k, 2, 8, &n));
    ZE_OK(ze.zeKernelSetArgumentValue(k, 3, 4, &value));
    ZE_OK(ze.zeKernelSetArgumentValue(k, 4, 64, NULL));
    return k;
}

static void *device_alloc(size_t bytes) {
    ze_device_mem_alloc_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *p = NULL;
    ZE_OK(ze.zeMemAllocDevice(context, &desc, bytes, 256, device, &p));
    return p;
}

static ze_command_list_handle_t immediate_list(void) {
    ze_command_queue_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ze_command_list_handle_t list = NULL;
    ZE_OK(ze.zeCommandListCreateImmediate(context, device, &desc, &list));
    return list;
}

/* A pool of one event with `flags` (host-visible, timestamps), and that event. */
static ze_event_handle_t one_event(ze_event_pool_flags_t flags, ze_event_pool_handle_t *pool) {
    ze_event_pool_desc_t pdesc = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, .flags = flags,
                                  .count = 1};
    *pool = NULL;
    ZE_OK(ze.zeEventPoolCreate(context, &pdesc, 1, &device, pool));
    ze_event_desc_t edesc = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC};
    ze_event_handle_t event = NULL;
    ZE_OK(ze.zeEventCreate(*pool, &edesc, &event));
    return event;
}

/* The end of most tests: the list first (destroying an immediate list runs what is still
 * queued), then the kernel, module and buffer, and close_fake's checks that nothing is left
 * and how many misuses were counted. */
static void destroy_and_close(ze_command_list_handle_t list, ze_kernel_handle_t k,
                              ze_module_handle_t module, void *dev, long expected_misuses) {
    ZE_OK(ze.zeCommandListDestroy(list));
    ZE_OK(ze.zeKernelDestroy(k));
    ZE_OK(ze.zeModuleDestroy(module));
    ZE_OK(ze.zeMemFree(context, dev));
    close_fake(expected_misuses);
}

static const ze_group_count_t one_group = {1, 1, 1};

/* ---- execution ------------------------------------------------------------------------------- */

/* A regular list recorded once (fill, kernel, copy to host memory), executed twice on a queue
 * with a fence; the second run starts from a buffer the host scribbled on, and the result is
 * the model's again. Reset then records something else. */
Test(fake_ze, regular_list_runs_on_a_queue_with_a_fence) {
    open_fake();
    enum { N = 300 };
    uint32_t *dev = device_alloc(N * 4);
    uint32_t *host = NULL;
    ze_host_mem_alloc_desc_t hdesc = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    ZE_OK(ze.zeMemAllocHost(context, &hdesc, N * 4, 64, (void **)&host));
    ze_module_handle_t module = module_create();
    ze_kernel_handle_t k = fill_kernel(module, dev, 10, 100, 7, 32);

    ze_command_list_desc_t ldesc = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t list = NULL;
    ZE_OK(ze.zeCommandListCreate(context, device, &ldesc, &list));
    const uint32_t three = 3;
    ZE_OK(ze.zeCommandListAppendMemoryFill(list, dev, &three, 4, N * 4, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &(ze_group_count_t){2, 1, 1}, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendMemoryCopy(list, host, dev, N * 4, NULL, 0, NULL));
    ze_command_queue_desc_t qdesc = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_queue_handle_t queue = NULL;
    ZE_OK(ze.zeCommandQueueCreate(context, device, &qdesc, &queue));
    /* an open list cannot be executed */
    cr_assert_eq(ze.zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ZE_OK(ze.zeCommandListClose(list));
    ze_fence_desc_t fdesc = {.stype = ZE_STRUCTURE_TYPE_FENCE_DESC};
    ze_fence_handle_t fence = NULL;
    ZE_OK(ze.zeFenceCreate(queue, &fdesc, &fence));
    for (int run = 0; run < 2; run++) {
        memset(host, 0xff, N * 4);
        ZE_OK(ze.zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
        ZE_OK(ze.zeFenceHostSynchronize(fence, UINT64_MAX));
        for (uint32_t i = 0; i < N; i++)
            cr_assert_eq(host[i], i >= 10 && i < 110 ? 7u : 3u, "run %d, element %u: %u", run, i,
                         host[i]);
        ZE_OK(ze.zeFenceReset(fence));
        cr_assert_eq(ze.zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
    }
    /* reset, record a different fill, run without a fence */
    ZE_OK(ze.zeCommandListReset(list));
    const uint32_t nine = 9;
    ZE_OK(ze.zeCommandListAppendMemoryFill(list, host, &nine, 4, N * 4, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListClose(list));
    ZE_OK(ze.zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZE_OK(ze.zeCommandQueueSynchronize(queue, UINT64_MAX));
    cr_assert_eq(host[0], 9u);
    cr_assert_eq(host[N - 1], 9u);

    ZE_OK(ze.zeFenceDestroy(fence));
    ZE_OK(ze.zeCommandQueueDestroy(queue));
    ZE_OK(ze.zeMemFree(context, host)); /* nothing queued uses it: the queue is synchronized */
    destroy_and_close(list, k, module, dev, 0);
}

/* Level Zero captures a launch's arguments and group size when it is appended: changing them
 * before the device runs the first launch must not change what it does. */
Test(fake_ze, launches_capture_their_arguments) {
    open_fake();
    enum { N = 200 };
    uint32_t *dev = device_alloc(N * 4);
    ze_module_handle_t module = module_create();
    ze_kernel_handle_t k = fill_kernel(module, dev, 0, 50, 1, 16);
    ze_command_list_handle_t list = immediate_list();
    const uint32_t zero = 0;
    ZE_OK(ze.zeCommandListAppendMemoryFill(list, dev, &zero, 4, N * 4, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendBarrier(list, NULL, 0, NULL));
    uint64_t offset = 100;
    uint32_t value = 2;
    ZE_OK(ze.zeKernelSetArgumentValue(k, 1, 8, &offset));
    ZE_OK(ze.zeKernelSetArgumentValue(k, 3, 4, &value));
    ZE_OK(ze.zeKernelSetGroupSize(k, 64, 1, 1));
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 0, NULL));
    ZE_OK(ze.zeCommandListAppendBarrier(list, NULL, 0, NULL));
    uint32_t got[N];
    ZE_OK(ze.zeCommandListAppendMemoryCopy(list, got, dev, sizeof got, NULL, 0, NULL));
    ze_event_pool_handle_t pool;
    ze_event_handle_t done = one_event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, &pool);
    ZE_OK(ze.zeCommandListAppendBarrier(list, done, 0, NULL));
    ZE_OK(ze.zeEventHostSynchronize(done, UINT64_MAX));
    for (uint32_t i = 0; i < N; i++)
        cr_assert_eq(got[i], i < 50 ? 1u : i >= 100 && i < 150 ? 2u : 0u, "element %u: %u", i,
                     got[i]);
    ZE_OK(ze.zeEventDestroy(done));
    ZE_OK(ze.zeEventPoolDestroy(pool));
    destroy_and_close(list, k, module, dev, 0);
}

/* The simulated clock advances one tick per work item: 3 groups of 32 take exactly 96. */
Test(fake_ze, kernel_timestamps_count_work_items) {
    open_fake();
    uint32_t *dev = device_alloc(4096);
    ze_module_handle_t module = module_create();
    ze_kernel_handle_t k = fill_kernel(module, dev, 0, 1000, 5, 32);
    ze_event_pool_handle_t pool;
    ze_event_handle_t ev =
        one_event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, &pool);
    ze_command_list_handle_t list = immediate_list();
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &(ze_group_count_t){3, 1, 1}, ev, 0, NULL));
    ze_kernel_timestamp_result_t ts;
    ZE_OK(ze.zeEventQueryKernelTimestamp(ev, &ts));
    cr_assert_eq(ts.global.kernelEnd - ts.global.kernelStart, 96);
    cr_assert_eq(ts.context.kernelEnd - ts.context.kernelStart, 96);
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ZE_OK(ze.zeKernelGetProperties(k, &props));
    cr_assert_eq(props.numKernelArgs, 5);
    char name[64];
    size_t size = sizeof name;
    ZE_OK(ze.zeKernelGetName(k, &size, name));
    cr_assert_str_eq(name, "prim_fill_u32");
    ZE_OK(ze.zeEventDestroy(ev));
    ZE_OK(ze.zeEventPoolDestroy(pool));
    destroy_and_close(list, k, module, dev, 0);
}

/* ---- what the driver refuses ----------------------------------------------------------------- */

/* Every kernel of magnus's module is there; argument indices, sizes and kinds are checked
 * against the SPIR-V, group sizes against maxTotalGroupSize (1024). */
Test(fake_ze, kernels_and_arguments_are_checked) {
    open_fake();
    ze_module_handle_t module = module_create();
    uint32_t count = 0;
    ZE_OK(ze.zeModuleGetKernelNames(module, &count, NULL));
    cr_assert_geq(count, 40, "%u kernels", count);
    const char **names = calloc(count, sizeof *names);
    cr_assert_not_null(names);
    ZE_OK(ze.zeModuleGetKernelNames(module, &count, names));
    bool found = false;
    for (uint32_t i = 0; i < count; i++) found = found || strcmp(names[i], "gmagnus_multisplit") == 0;
    cr_assert(found, "gmagnus_multisplit is not among the module's kernels");
    free(names);

    ze_kernel_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = "no_such_kernel"};
    ze_kernel_handle_t k = NULL;
    cr_assert_eq(ze.zeKernelCreate(module, &desc, &k), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    desc.pKernelName = "prim_fill_u32";
    ZE_OK(ze.zeKernelCreate(module, &desc, &k));
    uint64_t eight = 8;
    uint32_t four = 4;
    cr_assert_eq(ze.zeKernelSetArgumentValue(k, 5, 8, &eight),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    cr_assert_eq(ze.zeKernelSetArgumentValue(k, 0, 4, &four),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "a pointer is 8 bytes");
    cr_assert_eq(ze.zeKernelSetArgumentValue(k, 1, 4, &four),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "offset is a 64-bit value");
    cr_assert_eq(ze.zeKernelSetArgumentValue(k, 3, 8, &eight),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "value is a 32-bit value");
    cr_assert_eq(ze.zeKernelSetArgumentValue(k, 4, 0, NULL),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "local memory needs a size");
    cr_assert_eq(ze.zeKernelSetArgumentValue(k, 4, 8, &eight), ZE_RESULT_ERROR_INVALID_ARGUMENT,
                 "local memory has no value");
    cr_assert_eq(ze.zeKernelSetGroupSize(k, 2048, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    cr_assert_eq(ze.zeKernelSetGroupSize(k, 64, 32, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    ZE_OK(ze.zeKernelSetGroupSize(k, 1024, 1, 1));
    ZE_OK(ze.zeKernelDestroy(k));
    ZE_OK(ze.zeModuleDestroy(module));
    close_fake(0);
}

/* A module that is not SPIR-V, or SPIR-V from the future, fails with a log that says why. */
Test(fake_ze, bad_modules_fail_with_a_log) {
    open_fake();
    uint32_t words[64];
    memcpy(words, magnus_spirv_f32, sizeof words);
    struct {
        uint32_t word, value;
        const char *log;
    } cases[] = {{0, 0x12345678u, "magic"}, {1, 0x00010500u, "1.5 is newer"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t bad[64];
        memcpy(bad, words, sizeof bad);
        bad[cases[i].word] = cases[i].value;
        ze_module_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
                                 .format = ZE_MODULE_FORMAT_IL_SPIRV,
                                 .inputSize = sizeof bad,
                                 .pInputModule = (const uint8_t *)bad};
        ze_module_handle_t module = NULL;
        ze_module_build_log_handle_t log = NULL;
        cr_assert_eq(ze.zeModuleCreate(context, device, &desc, &module, &log),
                     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
        char text[4096];
        size_t size = sizeof text;
        ZE_OK(ze.zeModuleBuildLogGetString(log, &size, text));
        cr_assert(strstr(text, cases[i].log), "log \"%s\" lacks \"%s\"", text, cases[i].log);
        ZE_OK(ze.zeModuleBuildLogDestroy(log));
    }
    close_fake(0);
}

/* The kernel's own local arrays count: hash_bin_count declares 2432 bytes, so 2048 more do not
 * fit a 4 KiB device while 1024 do. */
Test(fake_ze, local_memory_includes_the_kernels_own_arrays) {
    setenv("FAKE_ZE_LOCAL_MEM", "4096", 1);
    open_fake();
    uint32_t *dev = device_alloc(4096);
    ze_module_handle_t module = module_create();
    ze_kernel_handle_t k = kernel_named(module, "hash_bin_count");
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ZE_OK(ze.zeKernelGetProperties(k, &props));
    cr_assert_eq(props.localMemSize, 2432);
    cr_assert_eq(props.numKernelArgs, 11);
    /* pointers, then values of the sizes the SPIR-V says (kernels/hash_binning.cl) */
    const int sizes[11] = {8, 8, 4, 8, 8, 4, 8, 8, 4, 8, 0};
    const int pointer[11] = {1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0};
    uint64_t zero = 0;
    for (uint32_t i = 0; i < 10; i++)
        ZE_OK(ze.zeKernelSetArgumentValue(k, i, (size_t)sizes[i],
                                          pointer[i] ? (const void *)&dev : (const void *)&zero));
    ZE_OK(ze.zeKernelSetGroupSize(k, 256, 1, 1));
    ze_command_list_handle_t list = immediate_list();
    ZE_OK(ze.zeKernelSetArgumentValue(k, 10, 2048, NULL));
    cr_assert_eq(ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 0, NULL),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ZE_OK(ze.zeKernelSetArgumentValue(k, 10, 1024, NULL));
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 0, NULL));
    destroy_and_close(list, k, module, dev, 0); /* the list runs what is queued first */
}

/* What a GPU would run anyway, with garbage or a crash, the fake reports and counts: a launch
 * before the group size is set, one with an argument never set, a pointer argument outside
 * every allocation, a kernel or module destroyed and memory freed under queued work. */
Test(fake_ze, misuse_is_reported) {
    open_fake();
    uint32_t *dev = device_alloc(1024);
    ze_module_handle_t module = module_create();
    ze_kernel_handle_t fresh = kernel_named(module, "prim_fill_u32");
    ze_command_list_handle_t list = immediate_list();
    long misuses = 0;
    cr_assert_neq(ze.zeCommandListAppendLaunchKernel(list, fresh, &one_group, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS, "no group size");
    cr_assert_eq(ze.misuses(), ++misuses);
    ZE_OK(ze.zeKernelSetGroupSize(fresh, 32, 1, 1));
    cr_assert_neq(ze.zeCommandListAppendLaunchKernel(list, fresh, &one_group, NULL, 0, NULL),
                  ZE_RESULT_SUCCESS, "no arguments");
    cr_assert_eq(ze.misuses(), ++misuses);
    ZE_OK(ze.zeKernelDestroy(fresh));

    /* a stack address is no device memory: reported when the launch runs, not run */
    uint32_t stack[8] = {0};
    ze_kernel_handle_t k = fill_kernel(module, stack, 0, 8, 1, 8);
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 0, NULL));
    ze_event_pool_handle_t pool;
    ze_event_handle_t gate = one_event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, &pool);
    ZE_OK(ze.zeCommandListAppendBarrier(list, gate, 0, NULL));
    ZE_OK(ze.zeEventHostSynchronize(gate, UINT64_MAX));
    cr_assert_eq(ze.misuses(), ++misuses);
    cr_assert_eq(stack[0], 0u, "the launch ran on host stack memory");

    /* queued behind an event nobody signals: the kernel, its memory and module are in use */
    ZE_OK(ze.zeKernelSetArgumentValue(k, 0, sizeof dev, &dev));
    ze_event_pool_handle_t pool2;
    ze_event_handle_t never = one_event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, &pool2);
    ZE_OK(ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 1, &never));
    cr_assert_eq(ze.zeKernelDestroy(k), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    cr_assert_eq(ze.misuses(), ++misuses);
    cr_assert_eq(ze.zeMemFree(context, dev), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    cr_assert_eq(ze.misuses(), ++misuses);
    cr_assert_eq(ze.zeModuleDestroy(module), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    cr_assert_eq(ze.misuses(), ++misuses);
    /* let it run, then everything goes */
    ze_event_handle_t signal = never;
    ze_command_list_handle_t other = immediate_list();
    ZE_OK(ze.zeCommandListAppendSignalEvent(other, signal));
    ZE_OK(ze.zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZE_OK(ze.zeEventHostSynchronize(never, UINT64_MAX));
    ZE_OK(ze.zeCommandListDestroy(other));
    ZE_OK(ze.zeCommandListDestroy(list));
    ZE_OK(ze.zeEventDestroy(gate));
    ZE_OK(ze.zeEventDestroy(never));
    ZE_OK(ze.zeEventPoolDestroy(pool));
    ZE_OK(ze.zeEventPoolDestroy(pool2));
    ZE_OK(ze.zeKernelDestroy(k));
    ZE_OK(ze.zeModuleDestroy(module));
    ZE_OK(ze.zeMemFree(context, dev));
    close_fake(misuses);
}

/* FAKE_ZE_STRICT=1 (the CI entries that run magnus's kernels): the first misuse aborts, so a
 * test fails even where the misuse itself would go unnoticed. Run in a child process, whose
 * death by SIGABRT is the expected outcome. */
Test(fake_ze, strict_mode_aborts_at_the_first_misuse) {
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (!alt || access(alt, R_OK) != 0)
        cr_skip_test("ZE_ENABLE_ALT_DRIVERS does not name the fake driver (run under ctest)");
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        setenv("FAKE_ZE_STRICT", "1", 1);
        open_fake();
        ze_module_handle_t module = module_create();
        ze_kernel_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC,
                                 .pKernelName = "prim_fill_u32"};
        ze_kernel_handle_t k = NULL;
        if (ze.zeKernelCreate(module, &desc, &k) != ZE_RESULT_SUCCESS) _exit(2);
        ze_command_list_handle_t list = immediate_list();
        ze.zeCommandListAppendLaunchKernel(list, k, &one_group, NULL, 0, NULL); /* no group size */
        _exit(3); /* not reached in strict mode */
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
              "the child %s %d instead of aborting", WIFSIGNALED(status) ? "died of signal" : "exited",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}
