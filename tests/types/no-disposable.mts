// Typed usage from a project whose `lib` lacks esnext.disposable (tsconfig.nodisposable.json):
// the package's declarations bring what `[Symbol.dispose]` needs themselves.
import { EvidenceStore, DocumentCatalog } from "evidence-check";

const store = new EvidenceStore([], { now: "2026-11-29T00:00:00+00:00" });
store[Symbol.dispose]();
{
  using catalog = new DocumentCatalog();
  console.log(catalog.ids());
}
