/** Evolution strategies on the linear action-scorer: options, spec and entry points. */
export { ES_DEFAULTS, ES_SPEC, type EsOptions } from "./options.js";
export { train, resume, type EsResult } from "./es.js";
