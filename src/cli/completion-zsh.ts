import type { CommandSpec, CompletionSpec, FlagSpec, Values } from './completion-spec.ts';

/** Single-quotes text for zsh. */
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A description inside an `_arguments` spec's brackets, where `[`, `]` and `\` need a backslash. */
const explain = (text: string): string => text.replace(/[[\]\\]/g, (c) => `\\${c}`);

function action(values: Values): string {
  switch (values.kind) {
    case 'choices':
      return `(${values.choices.map((c) => c.replace(/[^\w.-]/g, (x) => `\\${x}`)).join(' ')})`;
    case 'files':
      return '_files';
    case 'dirs':
      return '_files -/';
    case 'suite':
      // Braces: a bare command would get compadd's options put before its own arguments.
      return `{_llm_evals_values ${values.what}${values.list ? ' list' : ''}}`;
    case 'none':
      // A single space: show what is wanted, offer nothing.
      return ' ';
  }
}

function flagSpecs(flag: FlagSpec): string[] {
  const description = `[${explain(flag.description)}]`;
  if (!flag.value) return flag.names.map((n) => quote(`${n}${description}`));
  const { name, optional, values } = flag.value;
  const what = `${optional ? '::' : ':'}${name || 'value'}:${action(values)}`;
  // Repeatable: list flags add up when repeated (`-d a -d b`), and repeating any other is harmless.
  return flag.names.map((n) => quote(`*${n}${n.startsWith('--') ? '=' : '+'}${description}${what}`));
}

function argSpecs(c: CommandSpec): string[] {
  // zsh ends a flag's values at the next flag only in a form that then offers no flags, so a variadic flag
  // (`-m a b`) takes one value as a flag and the rest as arguments, which commander gives back to the flag.
  const variadic = c.flags.find((f) => f.value?.variadic && f.value.values.kind === 'suite');
  if (c.args.length === 0 && variadic?.value?.values.kind === 'suite') {
    const { name, values } = variadic.value;
    return [quote(`*:${name}:{_llm_evals_rest ${values.what} ${variadic.names.join(' ')}}`)];
  }
  return c.args.map((a, i) => {
    const position = a.variadic ? '*' : String(i + 1);
    return quote(`${position}${a.optional ? '::' : ':'}${a.name}:${action(a.values)}`);
  });
}

/** A command's subcommands as `_describe` takes them: `name:description`. */
const described = (commands: readonly CommandSpec[]): string =>
  commands.map((c) => quote(`${c.name.replace(/:/g, '\\:')}:${c.description}`)).join(' ');

/** A command made of subcommands: its flags and subcommands first, then the one named completes its own words. */
function parentCase(c: CommandSpec): string {
  const subs = c.subcommands ?? [];
  return [
    `        ${quote(c.name)})`,
    `          _arguments -C ${[...c.flags.flatMap(flagSpecs), "'1: :->sub'", "'*:: :->subargs'"].join(' ')} && ret=0`,
    `          case $state in`,
    `            sub) local -a subs; subs=(${described(subs)}); _describe -t commands subcommand subs && ret=0 ;;`,
    `            subargs)`,
    `              case $words[1] in`,
    ...subs.map(commandCase),
    `              esac`,
    `              ;;`,
    `          esac`,
    `          ;;`,
  ].join('\n');
}

function commandCase(c: CommandSpec): string {
  if (c.subcommands?.length) return parentCase(c);
  const specs = [...c.flags.flatMap(flagSpecs), ...argSpecs(c)];
  return `        ${quote(c.name)}) _arguments -s -S ${specs.join(' \\\n          ')} && ret=0 ;;`;
}

/**
 * The zsh completion script, for `source <(llm-evals completion zsh)` or as `_llm-evals` on `$fpath`: commands
 * with their descriptions, each command's flags, and the suite's values asked of `<program> __complete`.
 */
export function zshScript(spec: CompletionSpec, complete: string): string {
  const name = spec.names[0]!;
  const fn = `_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const commands = spec.commands.map((c) => quote(`${c.name.replace(/:/g, '\\:')}:${c.description}`));
  const top = spec.flags.flatMap(flagSpecs);
  return `#compdef ${spec.names.join(' ')}
# ${name} completion for zsh. Load it with: source <(${name} completion zsh)
# or save it as _${name} in a folder on $fpath before compinit runs.

# The suite's own values, from the program itself: it finds the suite as every command does.
_llm_evals_values() {
  local -a suite values
  local i
  for (( i = 1; i < CURRENT; i++ )); do
    case $words[i] in
      -C|--config|--helper) suite+=("$words[i]" "$words[i+1]") ;;
      --config=*|--helper=*|--no-search) suite+=("$words[i]") ;;
    esac
  done
  values=(\${(f)"$("$_llm_evals_program" ${complete} "$1" "\${suite[@]}" 2>/dev/null)"})
  # A comma-separated list completes its last item: -d animals,co<Tab> gives animals,colors.
  [[ $2 == list ]] && compset -P '*,'
  compadd -a values
}

# Words after a variadic flag's first value (-m a b): more of its values, if the flag is on the line.
_llm_evals_rest() {
  local what=$1 flag
  shift
  for flag in "$@"; do
    (( \${words[(Ie)$flag]} )) && { _llm_evals_values $what; return }
  done
  return 1
}

${fn}() {
  local _llm_evals_program=$words[1] curcontext="$curcontext" state line ret=1
  local -a commands
  typeset -A opt_args
  _arguments -C ${top.join(' ')} '1: :->command' '*:: :->args' && ret=0
  case $state in
    command)
      commands=(
        ${commands.join('\n        ')}
      )
      _describe -t commands command commands && ret=0
      ;;
    args)
      curcontext="\${curcontext%:*:*}:${name}-$words[1]:"
      case $words[1] in
${spec.commands.map(commandCase).join('\n')}
      esac
      ;;
  esac
  return ret
}

if [[ "$funcstack[1]" == "_${name}" ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${spec.names.join(' ')}
fi
`;
}
