// Writes every artifact of the injection corpus (see tests/js/injection-bundle.mjs) as
// JSON lines, for tests/gfm/test_gfm.py to render with cmark-gfm.
import { userProject, userRequire } from "../js/helpers.mjs";
import { artifacts } from "../js/injection-bundle.mjs";

const ec = userRequire(userProject())("evidence-check");
const out = [];
for (const a of artifacts(ec)) out.push(JSON.stringify(a));
process.stdout.write(out.join("\n") + "\n");
