/**
 * A blocks field under content source maps (Strapi 5.54's `encodeBlocks`): one hidden marker per visual block, so a
 * preview can highlight the field without every word carrying one. A paragraph, heading or quote gets it on its first
 * text leaf (depth first), a list on the first text leaf of each item (nested lists likewise), an image on its
 * non-empty alternative text (never its URL: a marker there breaks the `src`); code blocks and unknown types are left
 * as they are, since a marker would change the code shown.
 */
type Encode = (text: string) => string;
type Node = Record<string, unknown>;

// Strapi's own test: arrays count as objects (they have no `type` and no `children`, so they pass through unchanged).
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null;

export function encodeBlocks(blocks: unknown, encode: Encode): unknown {
  if (!Array.isArray(blocks)) return blocks;
  return blocks.map((block) => {
    if (!isObject(block)) return block;
    switch (block.type) {
      case 'image':
        return imageBlock(block, encode);
      case 'list':
        return listBlock(block, encode);
      case 'paragraph':
      case 'heading':
      case 'quote':
        return firstTextLeaf(block, encode).node;
      default:
        return block;
    }
  });
}

function firstTextLeaf(node: unknown, encode: Encode): { node: unknown; encoded: boolean } {
  if (!isObject(node)) return { node, encoded: false };
  if (node.type === 'text' && typeof node.text === 'string') return { node: { ...node, text: encode(node.text) }, encoded: true };
  if (!Array.isArray(node.children)) return { node, encoded: false };
  let encoded = false;
  const children = node.children.map((child: unknown) => {
    if (encoded) return child;
    const result = firstTextLeaf(child, encode);
    encoded = result.encoded;
    return result.node;
  });
  return { node: { ...node, children }, encoded };
}

function listBlock(list: Node, encode: Encode): Node {
  // As in Strapi, a list without a children array is an error: the whole entry is then answered without markers.
  const children = (list.children as unknown[]).map((child) => {
    if (!isObject(child)) return child;
    if (child.type === 'list-item') return firstTextLeaf(child, encode).node;
    if (child.type === 'list') return listBlock(child, encode);
    return child;
  });
  return { ...list, children };
}

function imageBlock(block: Node, encode: Encode): Node {
  const image = block.image;
  if (!isObject(image)) return block;
  const alt = image.alternativeText;
  if (typeof alt !== 'string' || alt.length === 0) return block;
  return { ...block, image: { ...image, alternativeText: encode(alt) } };
}
