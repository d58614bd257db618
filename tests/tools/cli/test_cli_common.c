/* Unit tests of the `magnus` tool's helpers: option parsing, number formatting, JSON output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_common.h"

/* Runs `write` on a memory stream and returns what it wrote (caller frees). */
static char *capture_json_string(const char *s) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    cli_json_write_string(f, s);
    fclose(f);
    return buf;
}

Test(cli_json, escapes_quotes_backslashes_and_control_characters) {
    char *out = capture_json_string("a\"b\\c\nd\te\x01" "f\x7f");
    cr_expect_str_eq(out, "\"a\\\"b\\\\c\\nd\\te\\u0001f\\u007f\"");
    free(out);
}

Test(cli_json, keeps_valid_utf8_and_replaces_invalid_bytes) {
    char *out = capture_json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    cr_expect_str_eq(out, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    free(out);
    /* lone continuation byte, truncated sequence, overlong '/', UTF-16 surrogate, 0xff */
    out = capture_json_string("\x80|\xe2\x82|\xc0\xaf|\xed\xa0\x80|\xff");
    cr_expect_str_eq(out, "\"\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\\ufffd\"");
    free(out);
    out = capture_json_string(NULL);
    cr_expect_str_eq(out, "null");
    free(out);
}

Test(cli_json, nested_objects_and_special_numbers) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_json j;
    cli_json_begin(&j, f);
    cli_json_int(&j, "n", -5);
    cli_json_object(&j, "inner");
    cli_json_real(&j, "x", 0.5);
    cli_json_real(&j, "nan", 0.0 / 0.0);
    cli_json_object(&j, "empty");
    cli_json_close(&j);
    cli_json_close(&j);
    cli_json_bool(&j, "ok", true);
    cli_json_null(&j, "none");
    int64_t ints[] = {4, -2};
    double reals[] = {0.25, 1.0 / 0.0};
    cli_json_int_array(&j, "ints", ints, 2);
    cli_json_real_array(&j, "reals", reals, 2);
    cli_json_int_array(&j, "empty", ints, 0);
    cli_json_end(&j);
    fclose(f);
    cr_expect_str_eq(buf, "{\n"
                          "  \"n\": -5,\n"
                          "  \"inner\": {\n"
                          "    \"x\": 0.5,\n"
                          "    \"nan\": null,\n"
                          "    \"empty\": {}\n"
                          "  },\n"
                          "  \"ok\": true,\n"
                          "  \"none\": null,\n"
                          "  \"ints\": [4, -2],\n"
                          "  \"reals\": [0.25, null],\n"
                          "  \"empty\": []\n"
                          "}\n");
    free(buf);
}

Test(cli_numbers, thousands_separators) {
    cr_expect_str_eq(cli_count(0).s, "0");
    cr_expect_str_eq(cli_count(999).s, "999");
    cr_expect_str_eq(cli_count(1000).s, "1,000");
    cr_expect_str_eq(cli_count(81362487).s, "81,362,487");
    cr_expect_str_eq(cli_count(-1234567).s, "-1,234,567");
    cr_expect_str_eq(cli_count(INT64_MIN).s, "-9,223,372,036,854,775,808");
}

Test(cli_numbers, si_and_durations) {
    cr_expect_str_eq(cli_si(81362487).s, "81.4 M");
    cr_expect_str_eq(cli_si(999).s, "999");
    cr_expect_str_eq(cli_si(1.5e9).s, "1.5 G");
    cr_expect_str_eq(cli_duration(2.5).s, "2.50 s");
    cr_expect_str_eq(cli_duration(0.0123).s, "12.3 ms");
    cr_expect_str_eq(cli_duration(4.2e-5).s, "42 us");
}

Test(cli_numbers, memory_sizes) {
    static const struct {
        uint64_t bytes;
        const char *text;
    } cases[] = {
        {0, "0 bytes"},
        {1023, "1023 bytes"},
        {1024, "1.00 KiB"},
        {49152, "48.00 KiB"},
        {1610612736, "1.50 GiB"},
        {(uint64_t)2048 << 40, "2048.00 TiB"}, /* TiB is the largest unit */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_str_eq(cli_bytes(cases[i].bytes).s, cases[i].text, "%llu bytes",
                         (unsigned long long)cases[i].bytes);
}

Test(cli_numbers, strict_conversions) {
    int64_t i;
    uint64_t u;
    double d;
    magnus_value_type t;
    cr_expect(cli_to_int64("-42", &i) && i == -42);
    cr_expect(!cli_to_int64("42x", &i));
    cr_expect(!cli_to_int64("", &i));
    cr_expect(!cli_to_int64("99999999999999999999", &i));
    cr_expect(cli_to_bytes("65536", &i) && i == 65536);
    cr_expect(cli_to_bytes("48K", &i) && i == 49152);
    cr_expect(cli_to_bytes("227k", &i) && i == 232448);
    cr_expect(cli_to_bytes("2M", &i) && i == 2097152);
    cr_expect(cli_to_bytes("1G", &i) && i == 1073741824);
    /* the library's grammar (runtime/core/byte_size.h), as MAGNUS_LOCAL_MEM_BYTES takes it */
    cr_expect(cli_to_bytes("48KB", &i) && i == 49152);
    cr_expect(cli_to_bytes("48KiB", &i) && i == 49152);
    cr_expect(cli_to_bytes("1T", &i) && i == (int64_t)1 << 40);
    cr_expect(!cli_to_bytes("48KK", &i));
    cr_expect(!cli_to_bytes("1.5G", &i));
    cr_expect(!cli_to_bytes("-1K", &i));
    cr_expect(!cli_to_bytes("K", &i));
    cr_expect(!cli_to_bytes("", &i));
    cr_expect(!cli_to_bytes("9999999999G", &i)); /* past 2^63 */
    cr_expect(cli_to_uint64("18446744073709551615", &u) && u == UINT64_MAX);
    cr_expect(!cli_to_uint64("-1", &u));
    cr_expect(cli_to_double("0.57", &d) && d == 0.57);
    cr_expect(!cli_to_double("nan", &d));
    cr_expect(!cli_to_double("0x10", &d)); /* strtod's hexadecimal: refused (issue 33, item 9) */
    cr_expect(!cli_to_double("-0X1p3", &d));
    cr_expect(!cli_to_double(" 1", &d));
    cr_expect(cli_to_double("-0.5e1", &d) && d == -5);
    cr_expect(!cli_to_double("1.5.", &d));
    cr_expect(cli_to_type("f64", &t) && t == MAGNUS_FLOAT64);
    cr_expect(cli_to_type("float32", &t) && t == MAGNUS_FLOAT32);
    cr_expect(!cli_to_type("f16", &t));
}

/* A small command with every kind of option. */
typedef struct parsed {
    bool flag;
    int64_t count;
    uint64_t seed;
    double ratio;
    const char *out;
    const char *mode; /* CLI_FLAG_VALUE */
    magnus_value_type type;
    cli_args args; /* X [Y] */
} parsed;

static int parse(parsed *p, int argc, char **argv) {
    const cli_option options[] = {
        {"--flag", NULL, CLI_FLAG, &p->flag, NULL, "a flag"},
        {"--count", NULL, CLI_INT, &p->count, "N", "a count"},
        {"--seed", NULL, CLI_UINT, &p->seed, "SEED", "a seed"},
        {"--ratio", NULL, CLI_REAL, &p->ratio, "R", "a ratio"},
        {"--output", "-o", CLI_STRING, &p->out, "FILE", "a file"},
        {"--type", NULL, CLI_TYPE, &p->type, "T", "a type"},
        {"--verify", NULL, CLI_FLAG_VALUE, &p->mode, "MODE", "a flag with a value"},
        {0},
    };
    const cli_spec spec = {"test", "[options] X [Y]", NULL, options};
    p->args.min = 1;
    p->args.max = 2;
    return cli_parse(&spec, argc, argv, &p->args);
}

Test(cli_parse, options_in_both_spellings_and_positionals) {
    parsed p = {.count = 7, .type = MAGNUS_FLOAT32};
    char *argv[] = {"test", "x", "--flag", "--count=-3", "--seed", "9", "-o", "c.mtx",
                    "--ratio", "0.25", "--type=f64", "--", "--y", NULL};
    cr_assert_eq(parse(&p, 13, argv), CLI_CONTINUE);
    cr_expect(p.flag);
    cr_expect_eq(p.count, -3);
    cr_expect_eq(p.seed, 9);
    cr_expect_eq(p.ratio, 0.25);
    cr_expect_str_eq(p.out, "c.mtx");
    cr_expect_eq(p.type, MAGNUS_FLOAT64);
    cr_assert_eq(p.args.count, 2);
    cr_expect_str_eq(p.args.at[0], "x");
    cr_expect_str_eq(p.args.at[1], "--y");
}

Test(cli_parse, defaults_stay_when_options_are_absent) {
    parsed p = {.count = 7, .type = MAGNUS_FLOAT32};
    char *argv[] = {"test", "-", NULL};
    cr_assert_eq(parse(&p, 2, argv), CLI_CONTINUE);
    cr_expect(!p.flag);
    cr_expect_eq(p.count, 7);
    cr_expect_eq(p.type, MAGNUS_FLOAT32);
    cr_expect_str_eq(p.args.at[0], "-");
}

Test(cli_parse, flag_with_an_attached_value) {
    parsed p = {0};
    char *bare[] = {"test", "x", "--verify", "y", NULL};
    cr_assert_eq(parse(&p, 4, bare), CLI_CONTINUE);
    cr_expect_str_eq(p.mode, "");
    cr_expect_eq(p.args.count, 2, "a value must be attached with '='");
    parsed q = {0};
    char *valued[] = {"test", "x", "--verify=random", NULL};
    cr_assert_eq(parse(&q, 3, valued), CLI_CONTINUE);
    cr_expect_str_eq(q.mode, "random");
    parsed r = {0};
    char *absent[] = {"test", "x", NULL};
    cr_assert_eq(parse(&r, 2, absent), CLI_CONTINUE);
    cr_expect_null(r.mode);
}

Test(cli_parse, help_shows_flag_values_in_brackets) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *mode = NULL;
    const cli_option options[] = {
        {"--verify", NULL, CLI_FLAG_VALUE, &mode, "MODE", "check"},
        {"--plain", NULL, CLI_FLAG_VALUE, &mode, NULL, "no value name"},
        {0},
    };
    const cli_spec spec = {"test", "", NULL, options};
    cli_print_help(&spec, f);
    fclose(f);
    cr_expect_neq(strstr(buf, "--verify[=MODE]  check"), NULL, "%s", buf);
    cr_expect_neq(strstr(buf, "--plain  "), NULL, "%s", buf);
    free(buf);
}

Test(cli_parse, a_command_without_args_takes_no_positional) {
    bool flag = false;
    const cli_option options[] = {{"--flag", NULL, CLI_FLAG, &flag, NULL, "a flag"}, {0}};
    const cli_spec spec = {"test", "[--flag]", NULL, options};
    char *bare[] = {"test", "--flag", NULL};
    cr_expect_eq(cli_parse(&spec, 2, bare, NULL), CLI_CONTINUE);
    cr_expect(flag);
    char *extra[] = {"test", "x", NULL};
    cr_expect_eq(cli_parse(&spec, 2, extra, NULL), CLI_EXIT_USAGE);
}

Test(cli_parse, usage_errors_and_help) {
    struct {
        int argc;
        char *argv[4];
        int expected;
    } cases[] = {
        {2, {"test", "--help"}, CLI_EXIT_OK},
        {3, {"test", "x", "-h"}, CLI_EXIT_OK},
        {1, {"test"}, CLI_EXIT_USAGE},                       /* missing positional */
        {4, {"test", "x", "y", "z"}, CLI_EXIT_USAGE},        /* too many */
        {3, {"test", "x", "--bogus"}, CLI_EXIT_USAGE},       /* unknown option */
        {3, {"test", "x", "--count"}, CLI_EXIT_USAGE},       /* value missing */
        {4, {"test", "x", "--count", "3.5"}, CLI_EXIT_USAGE},/* not an integer */
        {4, {"test", "x", "--seed", "-1"}, CLI_EXIT_USAGE},  /* negative seed */
        {3, {"test", "x", "--flag=1"}, CLI_EXIT_USAGE},      /* flag with a value */
        {4, {"test", "x", "--type", "f16"}, CLI_EXIT_USAGE}, /* unknown type */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parsed p = {0};
        cr_expect_eq(parse(&p, cases[i].argc, cases[i].argv), cases[i].expected, "case %zu", i);
    }
}
