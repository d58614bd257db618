/*
 * `magnus params`: the gMAGNUS parameters a device chooses for an input, and the heavy/light
 * split they imply, without multiplying: the columns of the paper's Tables V and VI (C-hat
 * size, heavy intermediate products, heavy rows, chunks "required: level 0, level 1, ...").
 * The budget is the one a multiply would use: --local-mem, else MAGNUS_LOCAL_MEM_BYTES, else
 * the default min(device's local memory per work group, 48 KiB); both it and the device's
 * maximum are printed. With --describe FILE the device is one described in a file instead
 * (tools/cli_describe.c): nothing is probed, so a user can check the plan for a GPU this
 * machine does not have. The hash accumulator's tables for the same budget follow.
 */
#include <stdlib.h>
#include <string.h>

#include "cli_commands.h"
#include "cli_common.h"
#include "cli_compute.h"
#include "cli_describe.h"
#include "cli_device.h"
#include "cli_matrix.h"

/* "128: 64, 2", or "4" for one level, "1" without levels. */
static cli_text chunks_text(const magnus_gmagnus_params *p) {
    cli_text t;
    int n = snprintf(t.s, sizeof t.s, "%lld", (long long)p->chunks_required);
    if (p->levels > 1) {
        for (int i = 0; i < p->levels && n > 0 && (size_t)n < sizeof t.s; i++)
            n += snprintf(t.s + n, sizeof t.s - (size_t)n, "%s%lld", i ? ", " : ": ",
                          (long long)p->chunks_per_level[i]);
    }
    return t;
}

static double fraction(int64_t part, int64_t whole) {
    return whole > 0 ? (double)part / (double)whole : 0.0;
}

static void print_list(const int64_t *v, int n) {
    for (int i = 0; i < n; i++) printf("%s%lld", i ? ", " : "", (long long)v[i]);
}

/* The hash accumulator's part, after gMAGNUS's (its light rows and chunks use the same). */
static void print_hash_text(const magnus_hash_params *h, const magnus_device_info *dev) {
    printf("%-20s%d table sizes up to %lu slots: rows of up to %lld products (more: global "
           "memory)\n", "hash symbolic:", h->symbolic_bins, (unsigned long)h->symbolic_table_max,
           (long long)h->symbolic_products);
    printf("%-20s%d table sizes up to %lu slots: rows of up to %lld entries (more: global "
           "memory)\n", "hash numeric:", h->numeric_bins, (unsigned long)h->numeric_table_max,
           (long long)h->numeric_entries);
    printf("%-20sup to %lu work items per table; wide bins %s\n", "hash groups:",
           (unsigned long)h->group_max, h->wide_bins ? "on" : "off");
    if (h->dense_row_columns > 0)
        printf("%-20sC up to %lld columns (rows no local table holds)\n", "dense rows:",
               (long long)h->dense_row_columns);
    else
        printf("%-20soff\n", "dense rows:");
    printf("%-20s%s\n", "fp64:", dev->fp64 ? "yes" : "no (f64 multiplies are refused)");
}

static void print_text(const magnus_device_info *dev, const char *described,
                       uint64_t device_local_mem, const magnus_gmagnus_plan *plan,
                       magnus_value_type type, const cli_input *inputs, int ninputs) {
    const magnus_gmagnus_params *p = &plan->params;
    if (described)
        printf("%-20s%s %s (described in %s)\n", "device:", magnus_backend_name(dev->backend),
               dev->name, described);
    else
        printf("%-20s%s:%d %s\n", "device:", magnus_backend_name(dev->backend), dev->index,
               dev->name);
    printf("%-20s%llu bytes per work group (%.1f KiB; the device's maximum %.1f KiB)\n",
           "local memory:", (unsigned long long)p->local_mem_bytes,
           (double)p->local_mem_bytes / 1024.0, (double)device_local_mem / 1024.0);
    printf("%-20s%s, C has %s columns\n", "values:", cli_type_name(type), cli_count(p->c_cols).s);
    cli_inputs_print_type(stdout, inputs, ninputs, 20);
    printf("%-20s%lld products (rows and chunks with more are heavy)\n", "tau:",
           (long long)p->tau);
    printf("%-20s%lld columns (ndenseNumeric %lld); the last level's chunks with more than "
           "%lld elements\n", "dense accumulator:", (long long)p->dense_width,
           (long long)p->ndense_numeric, (long long)p->dense_min_elements);
    printf("%-20s%s per heavy row%s, at most %lld per level\n", "chunks:", chunks_text(p).s,
           p->levels > 1 ? " (required: per level)" : "", (long long)p->chunks_max);
    printf("%-20s%d", "levels:", p->levels);
    if (p->levels > 0) {
        printf(" (chunk widths ");
        print_list(p->chunk_width, p->levels);
        printf(" columns)");
    }
    printf("\n%-20souter product %lld", "elements per group:", (long long)p->outer_group_elems);
    if (p->levels > 0) {
        printf(", multisplit ");
        print_list(p->multisplit_group_elems, p->levels);
    }
    printf("\n%-20smultisplit %d items (%d subgroups of %d), outer product %d, dense %d\n",
           "work groups:", p->multisplit_group_size, p->subgroups, p->subgroup_size,
           p->outer_group_size, p->dense_group_size);
    printf("%-20s%.4f GB (%s bytes)\n", "C-hat size:", (double)plan->chat_bytes / 1e9,
           cli_count((int64_t)plan->chat_bytes).s);
    printf("%-20s%.4f (%s of %s products)\n", "heavy IP fraction:",
           fraction(plan->products_heavy, plan->products), cli_count(plan->products_heavy).s,
           cli_count(plan->products).s);
    printf("%-20s%.4f (%s of %s rows)\n", "heavy row fraction:",
           fraction(plan->rows_heavy, plan->rows), cli_count(plan->rows_heavy).s,
           cli_count(plan->rows).s);
}

/* JSON by hand for the arrays (cli_json writes objects only). */
static void print_json(const magnus_device_info *dev, const char *described,
                       uint64_t device_local_mem, const magnus_gmagnus_plan *plan,
                       const magnus_hash_params *h, magnus_value_type type,
                       const char *source_a, const char *source_b, const char *type_note) {
    const magnus_gmagnus_params *p = &plan->params;
    char id[64];
    if (described)
        snprintf(id, sizeof id, "%s (described)", magnus_backend_name(dev->backend));
    else
        snprintf(id, sizeof id, "%s:%d", magnus_backend_name(dev->backend), dev->index);
    printf("{\"device\": ");
    cli_json_write_string(stdout, id);
    printf(", \"described\": ");
    if (described)
        cli_json_write_string(stdout, described);
    else
        printf("null");
    printf(", \"device_name\": ");
    cli_json_write_string(stdout, dev->name);
    printf(", \"A\": ");
    cli_json_write_string(stdout, source_a);
    printf(", \"B\": ");
    cli_json_write_string(stdout, source_b ? source_b : "A");
    printf(", \"type_note\": ");
    cli_json_write_string(stdout, type_note);
    printf(",\n \"type\": \"%s\", \"local_mem_bytes\": %llu, \"device_local_mem_bytes\": %llu, "
           "\"c_cols\": %lld, \"tau\": %lld, "
           "\"ndense_numeric\": %lld, \"dense_width\": %lld, \"dense_min_elements\": %lld,\n "
           "\"chunks_required\": %lld, "
           "\"chunks_max\": %lld, \"levels\": %d, \"chunks\": ",
           cli_type_name(type), (unsigned long long)p->local_mem_bytes,
           (unsigned long long)device_local_mem, (long long)p->c_cols,
           (long long)p->tau, (long long)p->ndense_numeric, (long long)p->dense_width,
           (long long)p->dense_min_elements, (long long)p->chunks_required, (long long)p->chunks_max, p->levels);
    cli_json_write_string(stdout, chunks_text(p).s);
    printf(", \"chunks_per_level\": [");
    print_list(p->chunks_per_level, p->levels);
    printf("], \"chunk_width\": [");
    print_list(p->chunk_width, p->levels);
    printf("],\n \"outer_group_elems\": %lld, \"multisplit_group_elems\": [",
           (long long)p->outer_group_elems);
    print_list(p->multisplit_group_elems, p->levels);
    printf("], \"multisplit_group_size\": %d, \"subgroup_size\": %d, \"subgroups\": %d, "
           "\"outer_group_size\": %d, \"dense_group_size\": %d,\n",
           p->multisplit_group_size, p->subgroup_size, p->subgroups, p->outer_group_size,
           p->dense_group_size);
    printf(" \"rows\": %lld, \"rows_heavy\": %lld, \"heavy_row_fraction\": %.6g, "
           "\"products\": %lld, \"products_heavy\": %lld, \"heavy_ip_fraction\": %.6g, "
           "\"chat_bytes\": %llu, \"chat_gb\": %.6g,\n",
           (long long)plan->rows, (long long)plan->rows_heavy,
           fraction(plan->rows_heavy, plan->rows), (long long)plan->products,
           (long long)plan->products_heavy, fraction(plan->products_heavy, plan->products),
           (unsigned long long)plan->chat_bytes, (double)plan->chat_bytes / 1e9);
    printf(" \"fp64\": %s, \"hash\": {\"group_max\": %lu, \"wide_bins\": %s, "
           "\"symbolic_bins\": %d, \"symbolic_table_max\": %lu, \"symbolic_products\": %lld, "
           "\"numeric_bins\": %d, \"numeric_table_max\": %lu, \"numeric_entries\": %lld, "
           "\"dense_row_columns\": %lld}}\n",
           dev->fp64 ? "true" : "false", (unsigned long)h->group_max,
           h->wide_bins ? "true" : "false", h->symbolic_bins,
           (unsigned long)h->symbolic_table_max, (long long)h->symbolic_products,
           h->numeric_bins, (unsigned long)h->numeric_table_max, (long long)h->numeric_entries,
           (long long)h->dense_row_columns);
}

/* The device the flags name (or MAGNUS_DEVICE's, or the best one) with the budget a context
 * would use, and the device's own local memory per work group. */
static int open_device(magnus_device_info *dev, magnus_device_info *probed,
                       const char *backend, const char *device, uint64_t local_mem) {
    magnus_device_info chosen;
    char flags[256];
    magnus_status s = cli_device_choose(&chosen, backend, device, flags, sizeof flags);
    if (s) return cli_fail_in(s, flags);
    *probed = chosen;
    const char *problem = cli_local_mem_device_problem((int64_t)local_mem, &chosen);
    if (problem) return cli_usage_errorf("%s", problem);
    magnus_context_options opt;
    magnus_context ctx = NULL;
    if ((s = magnus_context_options_init(&opt))) return cli_fail(s);
    opt.local_mem_bytes = local_mem;
    if ((s = magnus_context_create(&ctx, &chosen, &opt))) return cli_fail(s);
    s = magnus_context_device(dev, ctx);
    magnus_context_free(&ctx);
    return s ? cli_fail(s) : CLI_EXIT_OK;
}

/* The device described in `path`, with the budget a context on it would take (as
 * open_device's, without one). */
static int describe_device(magnus_device_info *dev, magnus_device_info *described,
                           const cli_spec *spec, const char *path, uint64_t local_mem) {
    char why[512];
    if (!cli_describe_read(described, path, why, sizeof why))
        return cli_usage_error(spec, "%s", why);
    const char *problem = cli_local_mem_device_problem((int64_t)local_mem, described);
    if (problem) return cli_usage_errorf("%s", problem);
    magnus_context_options opt;
    magnus_hash_params h;
    magnus_status s = magnus_context_options_init(&opt);
    opt.local_mem_bytes = local_mem;
    if (!s) s = magnus_hash_params_compute(&h, described, &opt, MAGNUS_FLOAT32);
    if (s) return cli_fail(s);
    *dev = *described;
    dev->local_mem_bytes = h.local_mem_bytes;
    return CLI_EXIT_OK;
}

int cmd_params(int argc, char **argv) {
    bool json = false;
    const char *device = NULL, *backend = NULL, *describe = NULL;
    int64_t local_mem = 0;
    magnus_value_type type = MAGNUS_MM_TYPE_AUTO;
    cli_args args = {.min = 1, .max = 2};
    const cli_option options[] = {
        CLI_BACKEND_OPTION(&backend),
        CLI_DEVICE_OPTION(&device),
        {"--describe", NULL, CLI_STRING, &describe, "FILE",
         "a device described in FILE (keys below) instead of one present: nothing is probed"},
        CLI_LOCAL_MEM_OPTION(&local_mem),
        CLI_PRODUCT_TYPE_OPTION(&type),
        CLI_JSON_OPTION(&json),
        {0},
    };
    const cli_spec spec = {
        .command = "params",
        .synopsis = "[--backend NAME | --device SPEC | --describe FILE] [--local-mem BYTES]\n"
                    "       [--type auto|f32|f64] [--json]\n"
                    "       A [B]",
        .description =
            "Prints the gMAGNUS parameters for C = A*B (B = A when omitted) on a device: the\n"
            "heavy threshold tau, chunks per heavy row and their split over multisplit\n"
            "levels (\"required: level 0, level 1, ...\", as in the paper's Tables V and VI),\n"
            "elements per work group, and the heavy/light split of the input: C-hat size,\n"
            "fraction of intermediate products and of rows that are heavy. Nothing is\n"
            "multiplied, so there is no --algorithm: these are gMAGNUS's parameters, then the\n"
            "hash accumulator's (the hash algorithm's, and gMAGNUS's for light rows and\n"
            "chunks): its table sizes, work items per table and dense rows. A and B are Matrix\n"
            "Market files or generator specs:\n"
            CLI_GENERATOR_SPECS
            "--describe FILE takes the device from FILE, \"key = value\" lines (docs/devices/\n"
            "has examples, docs/level0.md the Intel Data Center GPU Max 1550's):\n"
            CLI_DESCRIBE_KEYS,
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
    const char *problem = cli_local_mem_problem(local_mem, cli_option_given(&local_mem));
    if (problem) return cli_usage_error(&spec, "%s", problem);
    char why[512];
    if (!cli_device_check(backend, device, why, sizeof why))
        return cli_usage_error(&spec, "%s", why);
    if (describe && (backend || device))
        return cli_usage_error(&spec, "--describe names the device: give no %s with it",
                               backend ? "--backend" : "--device");
    const char *source_a = args.at[0];
    const char *source_b = args.count > 1 ? args.at[1] : NULL;

    magnus_device_info dev, probed;
    rc = describe ? describe_device(&dev, &probed, &spec, describe, (uint64_t)local_mem)
                  : open_device(&dev, &probed, backend, device, (uint64_t)local_mem);
    if (rc) return rc;
    const uint64_t device_local_mem = probed.local_mem_bytes;
    cli_progress progress;
    cli_progress_init(&progress, false);
    cli_input inputs[2] = {{.source = source_a}, {.source = source_b}};
    const int ninputs = source_b ? 2 : 1;
    rc = cli_inputs_load(inputs, ninputs, type, &progress);
    const magnus_csr A = inputs[0].M, B = inputs[1].M;
    if (!rc) {
        type = A->type;
        magnus_gmagnus_plan plan;
        magnus_hash_params hash;
        magnus_context_options opt;
        magnus_status s = magnus_gmagnus_plan_compute(&plan, &dev, A, B ? B : A);
        if (!s) s = magnus_context_options_init(&opt);
        opt.local_mem_bytes = (uint64_t)local_mem;
        if (!s) s = magnus_hash_params_compute(&hash, &probed, &opt, type);
        if (s) {
            rc = cli_fail(s);
        } else if (json) {
            print_json(&dev, describe, device_local_mem, &plan, &hash, type, source_a, source_b,
                       inputs[ninputs - 1].type_note);
        } else {
            print_text(&dev, describe, device_local_mem, &plan, type, inputs, ninputs);
            print_hash_text(&hash, &dev);
        }
    }
    cli_inputs_free(inputs, ninputs);
    return rc;
}
