/*
 * Which systems a bench runs. Without --systems: every probed device (CPU devices only when
 * no GPU is left, or with --cpu), each with the --algorithms, plus a cuSPARSE baseline on
 * every CUDA device, twice: cuMemAlloc'd (cusparse@) and from a stream-ordered pool, the
 * allocator magnus's CUDA backend uses (cusparse-pool@). With --systems: exactly the listed ones, each device named by a device
 * spec (magnus.h: "opencl:1", "gpu", "opencl:nvidia"), a plain device standing for each of the
 * --algorithms on it. Systems on one device share one magnus context, whose
 * device-to-device copy bandwidth is measured once here.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAX_DEVICES 32
#define ONE_GIB (1024.0 * 1024.0 * 1024.0)

typedef struct probe_list {
    magnus_device_info dev[MAX_DEVICES];
    char label[MAX_DEVICES][32];
    int count;
} probe_list;

static bool probe(probe_list *p, char *why, size_t n) {
    size_t count = 0;
    magnus_status s = magnus_device_probe(p->dev, MAX_DEVICES, &count);
    if (s) {
        snprintf(why, n, "device probe failed: %s: %s", magnus_status_string(s),
                 magnus_last_error());
        return false;
    }
    p->count = count < MAX_DEVICES ? (int)count : MAX_DEVICES;
    for (int i = 0; i < p->count; i++)
        snprintf(p->label[i], sizeof p->label[i], "%s:%d", magnus_backend_name(p->dev[i].backend),
                 p->dev[i].index);
    return true;
}

/* True when `item` is in the comma-separated `list`. */
static bool in_list(const char *list, const char *item) {
    if (!list) return false;
    size_t len = strlen(item);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && !strncmp(p, item, len)) return true;
        if (!end) break;
        p = end + 1;
    }
    return false;
}

static bool parse_algorithm(const char *name, size_t len, magnus_algorithm *out) {
    if (len == strlen("magnus") && !strncmp(name, "magnus", len)) { /* gMAGNUS's former name:
                                                                     old scripts, magnus@... */
        *out = MAGNUS_ALGORITHM_GMAGNUS;
        return true;
    }
    magnus_algorithm all[] = {MAGNUS_ALGORITHM_AUTO, MAGNUS_ALGORITHM_GMAGNUS,
                              MAGNUS_ALGORITHM_HASH};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        const char *n = magnus_algorithm_name(all[i]);
        if (len == strlen(n) && !strncmp(name, n, len)) {
            *out = all[i];
            return true;
        }
    }
    return false;
}

static const char *algorithm_name(magnus_algorithm a) { return magnus_algorithm_name(a); }

typedef struct builder {
    bench_system *systems;
    int count;
    const bench_system_request *req;
    const probe_list *probe;
} builder;

static bool excluded(const builder *b, const char *id, const char *device_label) {
    return in_list(b->req->exclude, id) || in_list(b->req->exclude, device_label);
}

static bench_system *append(builder *b, const char *id, char *why, size_t n) {
    for (int i = 0; i < b->count; i++)
        if (!strcmp(b->systems[i].id, id)) return NULL; /* listed twice: once is enough */
    if (b->count == BENCH_MAX_SYSTEMS) {
        snprintf(why, n, "more than %d systems", BENCH_MAX_SYSTEMS);
        return NULL;
    }
    bench_system *s = &b->systems[b->count++];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    return s;
}

static bool add_magnus(builder *b, int device, magnus_algorithm algorithm, char *why, size_t n) {
    char id[64];
    snprintf(id, sizeof id, "%s@%s", algorithm_name(algorithm), b->probe->label[device]);
    if (excluded(b, id, b->probe->label[device])) return true;
    why[0] = 0;
    bench_system *s = append(b, id, why, n);
    if (!s) return why[0] == 0;
    s->kind = BENCH_SYSTEM_MAGNUS;
    s->algorithm = algorithm;
    s->device = b->probe->dev[device];
    snprintf(s->device_label, sizeof s->device_label, "%s", b->probe->label[device]);
    snprintf(s->device_name, sizeof s->device_name, "%s", s->device.name);
    s->device_memory = s->device.global_mem_bytes;
    return true;
}

static bool add_cusparse(builder *b, int ordinal, bool pool, char *why, size_t n) {
    char id[64], label[32];
    snprintf(label, sizeof label, "cuda:%d", ordinal);
    snprintf(id, sizeof id, "%s@%s", pool ? "cusparse-pool" : "cusparse", label);
    if (excluded(b, id, label)) return true;
    why[0] = 0;
    bench_system *s = append(b, id, why, n);
    if (!s) return why[0] == 0;
    s->kind = BENCH_SYSTEM_CUSPARSE;
    s->pool = pool;
    snprintf(s->device_label, sizeof s->device_label, "%s", label);
    return true;
}

/* Each algorithm of --algorithms on probed device `device`. */
static bool add_device_algorithms(builder *b, int device, char *why, size_t n) {
    const char *list = b->req->algorithms ? b->req->algorithms : "gmagnus";
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        magnus_algorithm a;
        if (!parse_algorithm(p, len, &a)) {
            snprintf(why, n, "unknown algorithm '%.*s' (auto, gmagnus, hash)", (int)len, p);
            return false;
        }
        if (!add_magnus(b, device, a, why, n)) return false;
        if (!end) break;
        p = end + 1;
    }
    return true;
}

/* The probed device a spec names (the library's grammar: "opencl:1", "gpu", "h200"), or -1
 * with the reason (the spec malformed, matching nothing or several names) in why. */
static int find_device(const probe_list *p, const char *item, size_t item_len, const char *spec,
                       size_t len, char *why, size_t n) {
    char text[256];
    snprintf(text, sizeof text, "%.*s", (int)len, spec);
    size_t at;
    if (magnus_device_match(&at, p->dev, (size_t)p->count, text) == MAGNUS_SUCCESS)
        return (int)at;
    snprintf(why, n, "--systems '%.*s': %s (see magnus probe)", (int)item_len, item,
             magnus_last_error());
    return -1;
}

/* Whether the item is "cusparse" or "cusparse-pool", alone or before '@' (*pool: the latter). */
static bool names_cusparse(const char *item, size_t len, const char *at, bool *pool) {
    size_t name_len = at ? (size_t)(at - item) : len;
    *pool = name_len == 13 && !strncmp(item, "cusparse-pool", 13);
    return *pool || (name_len == 8 && !strncmp(item, "cusparse", 8));
}

static bool add_listed(builder *b, const char *item, size_t len, char *why, size_t n) {
    const char *at = memchr(item, '@', len);
    bool pool = false;
    if (names_cusparse(item, len, at, &pool)) {
        int ordinal = 0;
        if (at) {
            char *end;
            if ((size_t)(at + 6 - item) > len || strncmp(at + 1, "cuda:", 5) ||
                (ordinal = (int)strtol(at + 6, &end, 10), end != item + len) || ordinal < 0) {
                snprintf(why, n, "'%.*s': cuSPARSE runs on a CUDA device (%s@cuda:N)",
                         (int)len, item, pool ? "cusparse-pool" : "cusparse");
                return false;
            }
        }
        return add_cusparse(b, ordinal, pool, why, n);
    }
    const char *device = at ? at + 1 : item;
    size_t device_len = at ? len - (size_t)(at + 1 - item) : len;
    int d = find_device(b->probe, item, len, device, device_len, why, n);
    if (d < 0) return false;
    if (!at) return add_device_algorithms(b, d, why, n);
    magnus_algorithm a;
    if (!parse_algorithm(item, (size_t)(at - item), &a)) {
        snprintf(why, n, "'%.*s': unknown algorithm (auto, gmagnus, hash, cusparse, cusparse-pool)", (int)len, item);
        return false;
    }
    return add_magnus(b, d, a, why, n);
}

static bool add_defaults(builder *b, char *why, size_t n) {
    bool any_gpu = false;
    for (int i = 0; i < b->probe->count; i++)
        if (!b->probe->dev[i].is_cpu && !in_list(b->req->exclude, b->probe->label[i]))
            any_gpu = true;
    for (int i = 0; i < b->probe->count; i++) {
        if (b->probe->dev[i].is_cpu && any_gpu && !b->req->include_cpu) continue;
        if (!add_device_algorithms(b, i, why, n)) return false;
    }
    if (b->req->no_baseline) return true;
    for (int i = 0; i < b->probe->count; i++)
        if (b->probe->dev[i].backend == MAGNUS_BACKEND_CUDA &&
            (!add_cusparse(b, b->probe->dev[i].index, false, why, n) ||
             !add_cusparse(b, b->probe->dev[i].index, true, why, n)))
            return false;
    return true;
}

/* Context for a magnus system, shared with an earlier system on the same device. */
static void open_context(bench_system *systems, int index) {
    bench_system *s = &systems[index];
    for (int i = 0; i < index; i++)
        if (systems[i].kind == BENCH_SYSTEM_MAGNUS && systems[i].ctx &&
            !strcmp(systems[i].device_label, s->device_label)) {
            s->ctx = systems[i].ctx;
            s->local_mem_budget = systems[i].local_mem_budget;
            s->copy_gbps = systems[i].copy_gbps;
            memcpy(s->copy_note, systems[i].copy_note, sizeof s->copy_note); /* i < index */
            return;
        }
    magnus_device_info in_effect;
    magnus_context_options copt;
    magnus_context_options_init(&copt);
    copt.build_progress = cli_build_notice; /* one line when a kernel build starts */
    magnus_status st = magnus_context_create(&s->ctx, &s->device, &copt);
    if (!st && (st = magnus_context_device(&in_effect, s->ctx))) magnus_context_free(&s->ctx);
    if (st) {
        snprintf(s->unavailable, sizeof s->unavailable, "context on %s: %s: %s", s->device_label,
                 magnus_status_string(st), magnus_last_error());
        s->ctx = NULL;
        return;
    }
    s->local_mem_budget = in_effect.local_mem_bytes;
    s->owns_ctx = true;
}

/* The copy bandwidth of each context, measured once. */
static void measure_bandwidth(bench_system *s, const bench_system_request *req) {
    if (req->skip_bandwidth) {
        snprintf(s->copy_note, sizeof s->copy_note, "not measured (--no-bandwidth)");
        return;
    }
    uint64_t bytes = req->bandwidth_bytes;
    if (!bytes) bytes = s->device.is_cpu ? 64ull << 20 : 1ull << 30;
    uint64_t cap = s->device.max_alloc_bytes ? s->device.max_alloc_bytes : s->device.global_mem_bytes;
    if (s->device.global_mem_bytes / 8 < cap) cap = s->device.global_mem_bytes / 8;
    if (cap >= 4096 && bytes > cap) bytes = cap;
    double gbps = 0;
    magnus_status st = magnus_device_copy_bandwidth(&gbps, s->ctx, bytes, s->device.is_cpu ? 3 : 10);
    if (st) {
        snprintf(s->copy_note, sizeof s->copy_note, "copy bandwidth: %s: %.90s",
                 magnus_status_string(st), magnus_last_error());
        return;
    }
    s->copy_gbps = gbps;
    snprintf(s->copy_note, sizeof s->copy_note, "%.2f GiB copied", (double)bytes / ONE_GIB);
    /* the copy's buffers stay in the backend's pool otherwise, and the first input's peak
     * (which counts what the pool holds) would carry them (the 2026-12-01 sweep: 2.15 GB on
     * rmat-s15-a4-b8 against 0.34 GB on its seed-2 twin) */
    if ((st = magnus_context_trim(s->ctx)))
        snprintf(s->copy_note, sizeof s->copy_note, "copy buffers kept: %.40s: %.40s",
                 magnus_status_string(st), magnus_last_error());
}

bool bench_systems_build(bench_system *systems, int *count, const bench_system_request *req,
                         char *why, size_t why_size) {
    probe_list *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "out of host memory");
        return false;
    }
    builder b = {.systems = systems, .count = 0, .req = req, .probe = p};
    bool ok = probe(p, why, why_size);
    if (ok && req->systems) {
        for (const char *q = req->systems; ok && *q;) {
            const char *end = strchr(q, ',');
            size_t len = end ? (size_t)(end - q) : strlen(q);
            if (len) ok = add_listed(&b, q, len, why, why_size);
            if (!end) break;
            q = end + 1;
        }
    } else if (ok) {
        ok = add_defaults(&b, why, why_size);
    }
    free(p);
    *count = b.count;
    if (!ok) return false;
    for (int i = 0; i < b.count; i++) {
        bench_system *s = &systems[i];
        if (s->kind == BENCH_SYSTEM_MAGNUS) {
            open_context(systems, i);
            if (s->owns_ctx) measure_bandwidth(s, req);
        } else {
            char reason[BENCH_TEXT];
            int ordinal = atoi(s->device_label + 5);
            s->cusparse = bench_cusparse_open(ordinal, req->cusparse_library, s->pool, reason,
                                              sizeof reason);
            if (!s->cusparse) {
                snprintf(s->unavailable, sizeof s->unavailable, "%s", reason);
                snprintf(s->device_name, sizeof s->device_name, "cuSPARSE (unavailable)");
            } else {
                snprintf(s->device_name, sizeof s->device_name, "%s",
                         bench_cusparse_describe(s->cusparse));
                s->device_memory = bench_cusparse_device_memory(s->cusparse);
            }
            snprintf(s->copy_note, sizeof s->copy_note, "baseline: not measured");
        }
    }
    return true;
}

void bench_systems_free(bench_system *systems, int count) {
    for (int i = 0; i < count; i++) {
        if (systems[i].owns_ctx) magnus_context_free(&systems[i].ctx);
        systems[i].ctx = NULL;
        bench_cusparse_close(systems[i].cusparse);
        systems[i].cusparse = NULL;
    }
}
