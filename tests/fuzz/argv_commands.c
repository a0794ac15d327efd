// SPDX-License-Identifier: GPL-2.0
/*
 * The registry fuzz_argv links instead of user/cmd/commands.c: the
 * commands whose option parsers live in cli.c, so that the fuzzer needs
 * no libbpf and no other command. The real registry is tested by the
 * host tests (every command's --help).
 */
#include "commands.h"

const struct command commands[] = {
	{ &trace_cmd, NULL },
	{ &snapshot_cmd, NULL },
};
const size_t ncommands = sizeof(commands) / sizeof(commands[0]);
