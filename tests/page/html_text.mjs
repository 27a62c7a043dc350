// A small reader of web/index.html for the language tests: its elements as a tree (enough HTML for our
// own page: void elements, comments, attributes in quotes, a few character references), and the text of
// an element as the dictionary holds it (child elements as {0}, {1}, ...; white space collapsed).
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW = new Set(['script', 'style']);

function decode(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos|nbsp);/gi, (whole, name) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' }[name.toLowerCase()];
  });
}

// -> { tag: '#root', children } with element nodes { tag, attributes, children, parent } and text strings.
function parseHtml(html) {
  const root = { tag: '#root', attributes: {}, children: [], parent: null };
  let node = root;
  const token = /<!--[\s\S]*?-->|<!doctype[^>]*>|<\/([a-z0-9-]+)\s*>|<([a-z0-9-]+)((?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>|[^<]+/gi;
  let match;
  while ((match = token.exec(html))) {
    const [whole, closing, opening, attributeText] = match;
    if (whole.startsWith('<!')) continue;
    if (closing) {
      let open = node;
      while (open && open.tag !== closing.toLowerCase()) open = open.parent;
      if (open) node = open.parent;
    } else if (opening) {
      const attributes = {};
      for (const [, name, , a, b, c] of (attributeText || '').matchAll(/([^\s=]+)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
        attributes[name.toLowerCase()] = decode(a ?? b ?? c ?? '');
      }
      const element = { tag: opening.toLowerCase(), attributes, children: [], parent: node };
      node.children.push(element);
      if (RAW.has(element.tag)) {
        const end = html.indexOf(`</${element.tag}`, token.lastIndex);
        element.children.push(html.slice(token.lastIndex, end));
        token.lastIndex = end;
      } else if (!VOID.has(element.tag) && !whole.endsWith('/>')) {
        node = element;
      }
    } else {
      node.children.push(decode(whole));
    }
  }
  return root;
}

const collapse = (text) => text.replace(/\s+/g, ' ').trim();

// The element's text as a dictionary entry: its own text with each child element as {index}.
function template(element) {
  let index = 0;
  return collapse(element.children.map((child) => (typeof child === 'string' ? child : `{${index++}}`)).join(''));
}

function* walk(node) {
  for (const child of node.children) {
    if (typeof child === 'string') continue;
    yield child;
    yield* walk(child);
  }
}

export { collapse, parseHtml, template, walk };
