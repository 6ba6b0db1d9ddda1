import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, join, relative } from 'node:path';

export interface WatchOptions {
  /** Folders watched with everything below them (e.g. config/, src/). */
  trees: string[];
  /** Single files watched by name in their folder, so an editor's save-by-rename and a later-created file count. */
  files: string[];
  /** Changes are reported relative to this folder. */
  root: string;
  /** Quiet period before a batch of changes is reported. */
  debounceMs?: number;
  /** Force one fs.watch per folder (what runs where recursive watching is unavailable); tests use it. */
  perFolder?: boolean;
}

/** Editor and OS noise that must not restart the app: swap, backup and probe files. */
const IGNORED = /(^|[\\/])(\.#.*|.*~|.*\.sw[px]|4913|\.DS_Store)$/;

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // deleted meanwhile
  }
};

/**
 * Calls `onChange` with the changed paths, at most once per quiet period. Uses `fs.watch(recursive)` where the
 * platform has it; elsewhere one watcher per folder, adding watchers as folders appear (no polling, no chokidar).
 */
export function watchApp(options: WatchOptions, onChange: (paths: string[]) => void): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const changed = (path: string) => {
    // A new folder changes nothing by itself (the files written into it will be reported).
    if (IGNORED.test(path) || isFolder(path)) return;
    pending.add(relative(options.root, path) || path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const paths = [...pending];
      pending.clear();
      onChange(paths);
    }, options.debounceMs ?? 200);
  };
  const add = (folder: string, recursive: boolean, filter?: (name: string) => boolean): void => {
    if (watchers.has(folder)) return;
    try {
      const watcher = watch(folder, { recursive }, (_event, name) => {
        const file = name ? join(folder, name.toString()) : folder;
        if (filter && !filter(basename(file))) return;
        if (!recursive && !filter && isFolder(file)) addTree(file);
        changed(file);
      });
      watcher.on('error', () => watchers.delete(folder)); // the folder went away
      watchers.set(folder, watcher);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM' && recursive) return addTree(folder, true);
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  };
  const addTree = (folder: string, perFolder = options.perFolder): void => {
    if (!perFolder) return add(folder, true);
    add(folder, false);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) addTree(join(folder, entry.name), true);
    }
  };
  for (const tree of options.trees) if (existsSync(tree)) addTree(tree);
  // Watching the parent folder (not the file) sees a file created later and survives save-by-rename.
  for (const file of options.files) add(join(file, '..'), false, (name) => name === basename(file));
  return {
    close() {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
