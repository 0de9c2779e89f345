// The ES module entry of carcassonne-rules: the CommonJS glue's exports, so
// `import` and `require` share one module instance.
// SPDX-License-Identifier: MIT OR Apache-2.0
import rules from "./carcassonne-rules.js";

export const load = rules.load;
export const RulesError = rules.RulesError;
export default rules;
