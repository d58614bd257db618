/*
 * The subcommands of `magnus`, one source file each (cmd_<name>.c). Each takes its own argv,
 * argv[0] being the subcommand's name, and returns the process exit code (cli_common.h). To add
 * one: write cmd_<name>.c, declare it here and list it in magnus_main.c's table.
 */
#ifndef MAGNUS_CLI_COMMANDS_H
#define MAGNUS_CLI_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_rmat(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_multiply(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_spmv(int argc, char **argv);

#endif
