/**
 * The partner API reference's browser script (docs/decisions/0081): @scalar/api-reference's standalone
 * bundle, copied into the client assets by the build (scripts/lib/run.ts) and served by the shop itself,
 * never from a CDN. The version is in its name, so browsers keep it for a year; a unit test keeps the
 * version equal to the installed package's.
 */
export const API_REFERENCE_VERSION = "1.76.0";

/** Where the Worker serves it (from the ASSETS binding). */
export const API_REFERENCE_SCRIPT = `/vendor/scalar-api-reference-${API_REFERENCE_VERSION}.js`;

/** Every file under this folder has its version in its name: the build has browsers keep them a year. */
export const VENDOR_PREFIX = "/vendor/";
