import type { CommandSpec, CompletionSpec, FlagSpec, Values } from './completion-spec.ts';

/** A word list as a bash `$'…'` string, one word a line, so no word is ever expanded by the shell. */
const words = (list: readonly string[]): string =>
  `$'${list.map((w) => w.replace(/[\\']/g, (c) => `\\${c}`)).join('\\n')}'`;

/** A case pattern matching exactly these words. */
const pattern = (list: readonly string[]): string =>
  list.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join('|');

function offer(values: Values): string {
  switch (values.kind) {
    case 'choices':
      return `_llm_evals_reply ${words(values.choices)}`;
    case 'files':
      return '_llm_evals_paths -f';
    case 'dirs':
      return '_llm_evals_paths -d';
    case 'suite':
      return `_llm_evals_values ${values.what}${values.list ? ' list' : ''}`;
    case 'none':
      return ':';
  }
}

const valued = (flags: readonly FlagSpec[]): string[] => flags.filter((f) => f.value).flatMap((f) => f.names);
const variadic = (flags: readonly FlagSpec[]): string[] =>
  flags.filter((f) => f.value?.variadic).flatMap((f) => f.names);
const optional = (flags: readonly FlagSpec[]): string[] =>
  flags.filter((f) => f.value?.optional).flatMap((f) => f.names);

/** A command made of subcommands: its subcommands' names (or its own flags) first, then the one named completes. */
function parentCase(c: CommandSpec, depth: number): string {
  const subs = c.subcommands ?? [];
  return [
    `    ${pattern([c.name])})`,
    `      if (( COMP_CWORD == ${depth + 1} )); then`,
    `        if [[ "$cur" == -* ]]; then _llm_evals_reply ${words(c.flags.flatMap((f) => f.names))}; else _llm_evals_reply ${words(subs.map((sub) => sub.name))}; fi`,
    `        return 0`,
    `      fi`,
    // The words after the subcommand are its flags and arguments.
    `      i=${depth + 2}`,
    `      case "\${COMP_WORDS[${depth + 1}]}" in`,
    ...subs.map((sub) => commandCase(sub, depth + 1)),
    `        *) return 0 ;;`,
    `      esac`,
    `      ;;`,
  ].join('\n');
}

function commandCase(c: CommandSpec, depth = 1): string {
  if (c.subcommands?.length) return parentCase(c, depth);
  const flagValues = c.flags
    .filter((f) => f.value && f.value.values.kind !== 'none')
    .map((f) => `        ${pattern(f.names)}) ${offer(f.value!.values)} ;;`);
  const argValues = c.args.map((a, i) =>
    a.variadic ? `        *) ${offer(a.values)} ;;` : `        ${i}) ${offer(a.values)} ;;`,
  );
  return [
    `    ${pattern([c.name])})`,
    `      flags=${words(c.flags.flatMap((f) => f.names))}`,
    `      valued='|${valued(c.flags).join('|')}|'`,
    `      variadic='|${variadic(c.flags).join('|')}|'`,
    `      optional='|${optional(c.flags).join('|')}|'`,
    `      _llm_evals_flag_values() {`,
    `        case "$1" in`,
    ...flagValues,
    `        esac`,
    `      }`,
    `      _llm_evals_arg_values() {`,
    `        case "$1" in`,
    ...argValues,
    `        esac`,
    `      }`,
    `      ;;`,
  ].join('\n');
}

/**
 * The bash completion script: commands and flags from the spec, and the suite's datasets, cases, model ids and
 * runs asked of `<program> __complete` on each Tab, with `-C`/`--helper`/`--no-search` passed on so it finds the
 * same suite. Plain bash 3.2 (macOS) features only; no value ever goes through `compgen -W`, which would expand it.
 */
export function bashScript(spec: CompletionSpec, complete: string): string {
  const top = [...spec.commands.map((c) => c.name), ...spec.flags.flatMap((f) => f.names)];
  const fn = `_${spec.names[0]!.replace(/[^A-Za-z0-9]/g, '_')}`;
  return `# ${spec.names[0]} completion for bash. Load it with: source <(${spec.names[0]} completion bash)
# or save it as ~/.local/share/bash-completion/completions/${spec.names[0]}

# Sets COMPREPLY to the words (one a line) that start with the word under the cursor; with "list", only the part
# after the last comma is completed, so -d animals,co<Tab> gives animals,colors.
_llm_evals_reply() {
  local pre="" word="$cur" value
  if [[ "$2" == list && "$word" == *,* ]]; then pre="\${word%,*},"; word="\${word##*,}"; fi
  COMPREPLY=()
  while IFS= read -r value; do
    [[ -n "$value" && "$value" == "$word"* ]] && COMPREPLY+=("$pre$value")
  done <<< "$1"
}

_llm_evals_paths() {
  local IFS=$'\\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen "$1" -- "$cur"))
}

# The suite's own values, from the program itself: it finds the suite as every command does.
_llm_evals_values() {
  _llm_evals_reply "$("\${COMP_WORDS[0]}" ${complete} "$1" "\${suite[@]}" 2>/dev/null)" "$2"
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" flag="" awaiting="" rest="" word i=2 n=0
  local flags valued variadic optional
  local -a suite=()
  COMPREPLY=()
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if (( COMP_CWORD <= 1 )); then
    _llm_evals_reply ${words(top)}
    return 0
  fi
  case "\${COMP_WORDS[1]}" in
${spec.commands.map((c) => commandCase(c)).join('\n')}
    *) return 0 ;;
  esac
  # Walk the words before the cursor: which flag awaits a value, how many arguments came, which suite flags to pass on.
  while (( i < COMP_CWORD )); do
    word="\${COMP_WORDS[i]}"
    # A flag whose value is optional (-o [file]) takes the next word only when it is not a flag.
    [[ "$word" == -* && "$optional" == *"|$awaiting|"* ]] && awaiting=""
    if [[ -n "$awaiting" ]]; then
      [[ "$awaiting" == -C || "$awaiting" == --config || "$awaiting" == --helper ]] && suite+=("$awaiting" "$word")
      awaiting=""
    elif [[ "$word" == -* && "\${COMP_WORDS[i+1]}" == "=" ]]; then
      # bash splits --flag=value at the "=": three words.
      [[ "$word" == --config || "$word" == --helper ]] && suite+=("$word" "\${COMP_WORDS[i+2]}")
      i=$((i + 2))
    elif [[ "$word" == --*=* ]]; then
      [[ "$word" == --config=* || "$word" == --helper=* ]] && suite+=("$word")
    elif [[ "$valued" == *"|$word|"* ]]; then
      awaiting="$word"
      rest=""
      [[ "$variadic" == *"|$word|"* ]] && rest="$word"
    elif [[ "$word" == -* ]]; then
      rest=""
      [[ "$word" == --no-search ]] && suite+=("$word")
    elif [[ -z "$rest" ]]; then
      n=$((n + 1))
    fi
    i=$((i + 1))
  done
  if [[ "$cur" == "=" ]]; then
    cur=""
    flag="$prev"
  elif [[ "$prev" == "=" ]]; then
    flag="\${COMP_WORDS[COMP_CWORD-2]}"
  elif [[ -n "$awaiting" && ! ("$cur" == -* && "$optional" == *"|$awaiting|"*) ]]; then
    flag="$awaiting"
  elif [[ "$cur" == -* ]]; then
    _llm_evals_reply "$flags"
    return 0
  elif [[ -n "$rest" ]]; then
    flag="$rest"
  fi
  if [[ -n "$flag" ]]; then _llm_evals_flag_values "$flag"; else _llm_evals_arg_values "$n"; fi
  return 0
}

complete -F ${fn} ${spec.names.join(' ')}
`;
}
