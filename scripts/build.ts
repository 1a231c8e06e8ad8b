import { build } from "./lib.ts";

build();
