/**
 * What a command says when an argument or an option it requires is not given. Commander's own words name only the
 * argument (`missing required argument 'name'`); these name the command it belongs to, what it is, and the usage
 * that shows where it goes.
 */
import type { Command, Option } from 'commander';

export function missingArgumentMessage(command: Command, argumentName: string): string {
  const argument = command.registeredArguments.find((candidate) => candidate.name() === argumentName);
  const what = argument?.description ? `, ${argument.description}` : '';
  return `${commandPath(command)} needs its ${argumentName.toUpperCase()} argument${what}: ${usageLine(command)}`;
}

export function missingOptionMessage(command: Command, option: Option): string {
  const what = option.description ? `, ${option.description}` : '';
  return `${commandPath(command)} needs the option ${option.flags}${what}: ${usageLine(command)}`;
}

function usageLine(command: Command): string {
  return `mcp-host ${commandPath(command)} ${command.usage()}`;
}

/** The words after `mcp-host` that name the command: `tools call`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}
