/**
 * RFC 6570 URI templates as resource templates use them: the variables a template names, and the URI for values
 * filled in (levels 1–3: simple, reserved `+`, fragment `#`, label `.`, path `/`, parameters `;`, query `?` and `&`).
 */
const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

function names(list: string): string[] {
  return list
    .split(',')
    .map((spec) => spec.replace(/\*$|:\d+$/, '').trim())
    .filter((name) => name !== '');
}

export function templateVariables(template: string): string[] {
  const found: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const name of names(match[2] ?? '')) if (!found.includes(name)) found.push(name);
  }
  return found;
}

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_whole, operator: string, list: string) => {
    const encode = (value: string) =>
      operator === '+' || operator === '#' ? encodeURI(value) : encodeURIComponent(value);
    const defined = names(list).filter((name) => (values[name] ?? '') !== '');
    if (defined.length === 0) return '';
    const value = (name: string) => encode(values[name] ?? '');
    switch (operator) {
      case '?':
      case '&':
        return `${operator}${defined.map((name) => `${name}=${value(name)}`).join('&')}`;
      case ';':
        return defined.map((name) => `;${name}=${value(name)}`).join('');
      case '.':
      case '/':
        return defined.map((name) => `${operator}${value(name)}`).join('');
      case '#':
        return `#${defined.map(value).join(',')}`;
      default:
        return defined.map(value).join(',');
    }
  });
}
