// A strict XML parse for tests of SVG drawings: sax (isaacs/sax-js, in node_modules through xml2js) in strict
// mode throws on anything a browser's XML parser would refuse (unclosed tags, bare & or <, bad attributes).
import { createRequire } from 'node:module';

interface SaxTag {
  name: string;
  attributes: Record<string, string>;
}
interface SaxParser {
  onerror: (e: Error) => void;
  onopentag: (tag: SaxTag) => void;
  onclosetag: () => void;
  ontext: (text: string) => void;
  write(text: string): SaxParser;
  close(): void;
}

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (entities decoded). */
  text: string;
}

/** The root element of an XML document; throws on a document that is not well-formed. */
export function parseXml(text: string): XmlElement {
  const sax = createRequire(import.meta.url)('sax') as { parser(strict: boolean): SaxParser };
  const parser = sax.parser(true);
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.onerror = (e) => {
    throw e;
  };
  parser.onopentag = (tag) => {
    const el: XmlElement = { name: tag.name, attributes: tag.attributes, children: [], text: '' };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  };
  parser.onclosetag = () => void stack.pop();
  parser.ontext = (t) => {
    stack[stack.length - 1].text += t;
  };
  parser.write(text).close();
  if (root.children.length !== 1) throw new Error(`${root.children.length} root elements`);
  return root.children[0];
}

/** Every element of a tree, depth first. */
export function allElements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(allElements)];
}
