// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a command in the registry by name, apart from the registry
 * itself (commands.c, which links every command): the argv fuzzer links
 * these against a registry of its own.
 */
#include <string.h>

#include "commands.h"
#include "suggest.h"

const struct command *command_named(const char *name)
{
	size_t i;

	for (i = 0; i < ncommands; i++)
		if (commands[i].spec->name && !strcmp(commands[i].spec->name, name))
			return &commands[i];
	return NULL;
}

const char *suggest_command(const char *name)
{
	const char *names[16];
	size_t i, n = 0;

	for (i = 0; i < ncommands && n < 14; i++)
		if (commands[i].spec->name)
			names[n++] = commands[i].spec->name;
	names[n++] = "help";
	names[n++] = "version";
	return suggest_name(name, names, n);
}
