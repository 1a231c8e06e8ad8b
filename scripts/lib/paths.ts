/** Where the project and its tools are. */
import { resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");

export const bin = (name: string) => resolve(root, "node_modules", ".bin", name);
