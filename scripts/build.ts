import { build } from "./lib/run.ts";

build();
