/* `magnus`: the command-line tool. Dispatches to one subcommand per source file. */
#include <stdio.h>
#include <string.h>

#include "cli_commands.h"
#include "cli_common.h"

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `magnus --help` */
    int (*run)(int argc, char **argv);
} cli_command;

static const cli_command commands[] = {
    {"info", "describe a matrix: shape, row lengths, products of A*A [nnz(A*A)]", cmd_info},
    {"rmat", "write an R-MAT random graph as a Matrix Market file", cmd_rmat},
    {"gen", "write a generated matrix (laplace2d/3d, banded, uniform, star)", cmd_gen},
    {"multiply", "C = A*B, timed, optionally verified and written", cmd_multiply},
    {"demo", "multiply a generated R-MAT pair and verify it (no files needed)", cmd_demo},
    {"probe", "list the devices of every backend and why a backend was skipped", cmd_probe},
    {"bench", "time magnus against cuSPARSE on files and R-MAT sweeps (CSV/JSON)", cmd_bench},
    {"spmv", "y = alpha*A*x + beta*y on a device in a chosen SpMV format, timed", cmd_spmv},
    {"params", "gMAGNUS parameters and heavy/light split of A*B on a device [Tables V, VI]", cmd_params},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out) {
    fprintf(out,
            "usage: magnus <command> [options] [arguments]\n"
            "       magnus --help | --version\n"
            "\n"
            "magnus %s: sparse matrix-matrix multiplication (SpGEMM) with the gMAGNUS "
            "algorithm.\n\ncommands:\n",
            magnus_version());
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n'magnus <command> --help' describes a command. Exit status: 0 success, 1 error,\n"
            "2 usage error.\n");
}

static const cli_command *find_command(const char *name) {
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (!strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
        print_usage(stdout);
        return cli_stdout_finish(CLI_EXIT_OK);
    }
    if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
        printf("magnus %s\n", magnus_version());
        return cli_stdout_finish(CLI_EXIT_OK);
    }
    /* `magnus help CMD` is `magnus CMD --help`. */
    if (!strcmp(first, "help")) {
        if (argc < 3) {
            print_usage(stdout);
            return cli_stdout_finish(CLI_EXIT_OK);
        }
        const cli_command *c = find_command(argv[2]);
        if (!c) {
            fprintf(stderr, "magnus: unknown command '%s'\n", argv[2]);
            print_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        char *help_argv[] = {argv[2], "--help", NULL};
        cli_set_command(c->name);
        return cli_stdout_finish(c->run(2, help_argv));
    }
    const cli_command *c = find_command(first);
    if (!c) {
        fprintf(stderr, "magnus: unknown %s '%s'\n", first[0] == '-' ? "option" : "command",
                first);
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    fflush(stdout);
    cli_set_command(c->name);
    /* output lost to a full disk or a closed pipe makes a success a failure */
    return cli_stdout_finish(c->run(argc - 1, argv + 1));
}
