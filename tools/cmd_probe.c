/* `magnus probe`: every device of every backend, the probe's diagnostics, the device chosen. */
#include <stdlib.h>
#include <string.h>

#include "cli_commands.h"
#include "cli_common.h"

#define PROBE_MAX_DEVICES 64

typedef struct probe_result {
    magnus_device_info devices[PROBE_MAX_DEVICES];
    size_t count;       /* devices found (the list holds at most PROBE_MAX_DEVICES) */
    const char *diagnostics;
    magnus_device_info selected;
    magnus_status select_status;
    char select_error[512]; /* why no device is selected */
} probe_result;

/* The specs that name device i of the list, most precise first: BACKEND:INDEX, then the
 * stable ones (by name, backend or type) that resolve to it, as magnus_device_match says. */
#define PROBE_MAX_SPECS 6
typedef struct device_specs {
    char spec[PROBE_MAX_SPECS][300];
    int count;
} device_specs;

static void specs_of(device_specs *out, const probe_result *r, size_t i) {
    const magnus_device_info *d = &r->devices[i];
    const char *backend = magnus_backend_name(d->backend);
    char candidates[PROBE_MAX_SPECS][300];
    snprintf(candidates[0], sizeof candidates[0], "%s:%d", backend, d->index);
    snprintf(candidates[1], sizeof candidates[1], "%s:%s", backend, d->name);
    snprintf(candidates[2], sizeof candidates[2], "%s", d->name);
    snprintf(candidates[3], sizeof candidates[3], "%s:%s", backend, d->is_cpu ? "cpu" : "gpu");
    snprintf(candidates[4], sizeof candidates[4], "%s", backend);
    snprintf(candidates[5], sizeof candidates[5], "%s", d->is_cpu ? "cpu" : "gpu");
    size_t shown = r->count < PROBE_MAX_DEVICES ? r->count : PROBE_MAX_DEVICES;
    out->count = 0;
    for (int k = 0; k < PROBE_MAX_SPECS; k++) {
        size_t at;
        if (!candidates[k][0] ||
            magnus_device_match(&at, r->devices, shown, candidates[k]) != MAGNUS_SUCCESS ||
            at != i)
            continue;
        memcpy(out->spec[out->count++], candidates[k], sizeof out->spec[0]);
    }
}

static bool is_selected(const probe_result *r, const magnus_device_info *d) {
    return r->select_status == MAGNUS_SUCCESS && r->selected.backend == d->backend &&
           r->selected.index == d->index;
}

static void print_text(const probe_result *r) {
    size_t shown = r->count < PROBE_MAX_DEVICES ? r->count : PROBE_MAX_DEVICES;
    if (r->count == 0) printf("no devices found\n");
    for (size_t i = 0; i < shown; i++) {
        const magnus_device_info *d = &r->devices[i];
        printf("%s:%d  %s%s\n", magnus_backend_name(d->backend), d->index, d->name,
               is_selected(r, d) ? "  [selected]" : "");
        device_specs specs;
        specs_of(&specs, r, i);
        printf("  %-18s", "--device");
        for (int k = 0; k < specs.count; k++) printf("%s%s", k ? " | " : "", specs.spec[k]);
        printf("\n");
        printf("  %-18s%s\n", "vendor", d->vendor);
        printf("  %-18s%s\n", "driver", d->driver_version);
        printf("  %-18s%s\n", "type", d->is_cpu ? "CPU" : "GPU or accelerator");
        printf("  %-18s%s (%llu bytes)\n", "global memory", cli_bytes(d->global_mem_bytes).s,
               (unsigned long long)d->global_mem_bytes);
        printf("  %-18s%s\n", "largest buffer", cli_bytes(d->max_alloc_bytes).s);
        printf("  %-18s%llu KiB (%llu bytes)\n", "local memory",
               (unsigned long long)(d->local_mem_bytes / 1024),
               (unsigned long long)d->local_mem_bytes);
        printf("  %-18s%d\n", "compute units", d->compute_units);
        printf("  %-18s", "subgroup sizes");
        for (int k = 0; k < d->num_subgroup_sizes; k++)
            printf("%s%d", k ? ", " : "", d->subgroup_sizes[k]);
        printf("\n");
        printf("  %-18s%llu\n", "max work group", (unsigned long long)d->max_work_group_size);
        printf("  %-18s%s\n", "fp64", d->fp64 ? "yes" : "no");
        printf("  %-18s%s\n", "64-bit atomics", d->atomic64 ? "yes" : "no");
    }
    if (r->count > shown) printf("(%zu more devices not shown)\n", r->count - shown);
    if (r->select_status) printf("selected: none (%s)\n", r->select_error);
    printf("backends:\n");
    const char *line = r->diagnostics;
    while (*line) {
        size_t len = strcspn(line, "\n");
        printf("  %.*s\n", (int)len, line);
        line += len + (line[len] == '\n');
    }
}

/* JSON by hand for the arrays (cli_json writes objects only); strings go through
 * cli_json_write_string, so the output always parses. */
static void print_json(const probe_result *r) {
    size_t shown = r->count < PROBE_MAX_DEVICES ? r->count : PROBE_MAX_DEVICES;
    printf("{\"devices\": [");
    for (size_t i = 0; i < shown; i++) {
        const magnus_device_info *d = &r->devices[i];
        printf("%s\n  {\"id\": \"%s:%d\", \"backend\": \"%s\", \"index\": %d, \"name\": ",
               i ? "," : "", magnus_backend_name(d->backend), d->index,
               magnus_backend_name(d->backend), d->index);
        cli_json_write_string(stdout, d->name);
        device_specs specs;
        specs_of(&specs, r, i);
        printf(", \"specs\": [");
        for (int k = 0; k < specs.count; k++) {
            if (k) printf(", ");
            cli_json_write_string(stdout, specs.spec[k]);
        }
        printf("], \"vendor\": ");
        cli_json_write_string(stdout, d->vendor);
        printf(", \"driver_version\": ");
        cli_json_write_string(stdout, d->driver_version);
        printf(", \"global_mem_bytes\": %llu, \"max_alloc_bytes\": %llu, "
               "\"local_mem_bytes\": %llu, \"local_mem_kib\": %llu, \"compute_units\": %d, "
               "\"subgroup_sizes\": [",
               (unsigned long long)d->global_mem_bytes, (unsigned long long)d->max_alloc_bytes,
               (unsigned long long)d->local_mem_bytes,
               (unsigned long long)(d->local_mem_bytes / 1024), d->compute_units);
        for (int k = 0; k < d->num_subgroup_sizes; k++)
            printf("%s%d", k ? ", " : "", d->subgroup_sizes[k]);
        printf("], \"max_work_group_size\": %llu, \"fp64\": %s, \"atomic64\": %s, "
               "\"is_cpu\": %s, \"selected\": %s}",
               (unsigned long long)d->max_work_group_size, d->fp64 ? "true" : "false",
               d->atomic64 ? "true" : "false", d->is_cpu ? "true" : "false",
               is_selected(r, d) ? "true" : "false");
    }
    printf("%s],\n \"device_count\": %zu,\n \"selected\": ", shown ? "\n " : "", r->count);
    if (r->select_status) {
        printf("null, \"select_error\": ");
        cli_json_write_string(stdout, r->select_error);
    } else {
        printf("\"%s:%d\"", magnus_backend_name(r->selected.backend), r->selected.index);
    }
    printf(",\n \"diagnostics\": [");
    const char *line = r->diagnostics;
    for (int n = 0; *line; n++) {
        size_t len = strcspn(line, "\n");
        char text[1024];
        snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text ? len : sizeof text - 1), line);
        printf("%s\n  ", n ? "," : "");
        cli_json_write_string(stdout, text);
        line += len + (line[len] == '\n');
    }
    printf("\n ]}\n");
}

int cmd_probe(int argc, char **argv) {
    bool json = false;
    const cli_option options[] = {
        CLI_JSON_OPTION(&json),
        {0},
    };
    const cli_spec spec = {
        .command = "probe",
        .synopsis = "[--json]",
        .description =
            "Lists every device of every backend whose vendor library loads (CUDA, Level Zero,\n"
            "OpenCL), with what magnus uses of each, marks the device a multiply would run on,\n"
            "and says for each backend why it was used or skipped. MAGNUS_BACKENDS (e.g.\n"
            "\"opencl\" or \"cuda,opencl\") selects and orders the backends; MAGNUS_DEVICE, or\n"
            "--device of the commands that multiply, picks the device by a spec:\n"
            "  N               the N-th device of this list\n"
            "  gpu | cpu       the best device of that type\n"
            "  BACKEND         the best device of cuda, level0 or opencl\n"
            "  BACKEND:N       device N in that backend's own numbering (opencl:1)\n"
            "  BACKEND:gpu     the best device of that backend and type (opencl:cpu)\n"
            "  BACKEND:TEXT    a device of that backend whose name or vendor contains TEXT,\n"
            "                  in any case (opencl:nvidia)\n"
            "  TEXT            the same over every backend (h200, pthread)\n"
            "Indices follow the vendor's enumeration, which may change between environments\n"
            "(OpenCL's ICD order): names and types are stable. Several matches of one name give\n"
            "the best of them; matches of different names are refused as ambiguous. Each\n"
            "device's '--device' line lists the specs that name it. Exit status 1 when no\n"
            "device is found, or none is selected (MAGNUS_DEVICE names none of them).",
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, NULL);
    if (rc != CLI_CONTINUE) return rc;

    probe_result *r = calloc(1, sizeof *r);
    if (!r) return cli_failf("out of memory");
    magnus_status s = magnus_device_probe(r->devices, PROBE_MAX_DEVICES, &r->count);
    if (s) {
        free(r);
        return cli_fail(s);
    }
    r->select_status = magnus_device_select(&r->selected);
    if (r->select_status)
        snprintf(r->select_error, sizeof r->select_error, "%s: %s",
                 magnus_status_string(r->select_status), magnus_last_error());
    r->diagnostics = magnus_probe_diagnostics(); /* the selection probed again: same lines */
    if (json) print_json(r);
    else print_text(r);
    /* Nothing a multiply could run on is a failure, so that a script can ask `magnus probe`
     * whether there is a device; the listing above says why. */
    rc = CLI_EXIT_OK;
    if (r->count == 0)
        rc = cli_failf("no device found (the backends' lines say why)");
    else if (r->select_status)
        rc = cli_failf("no device selected: %s", r->select_error);
    free(r);
    return rc;
}
