// Typed usage from a browser project (bundler resolution): `init` is the default export,
// the error classes come by name, and `evidence-check/web` is the same build.
import init, { checkBundle, EvidenceStore, ContractError, EvidenceError } from "evidence-check";
import initWeb, { initSync } from "evidence-check/web";
import type { BundleResult, EvidenceCode } from "evidence-check";
import initExtras, { fromAnthropicMessage, ContractError as ExtrasContractError } from "evidence-check/extras";

export async function main(bundle: string): Promise<BundleResult> {
  await init();
  await initWeb({ module_or_path: "/pkg/evidence_check_bg.wasm" });
  void initSync;
  await initExtras();
  const sameError: typeof ContractError = ExtrasContractError;
  void fromAnthropicMessage, sameError;
  try {
    return checkBundle(bundle, { lang: "en" });
  } catch (e) {
    if (e instanceof ContractError) console.log(e.issues.length);
    if (e instanceof EvidenceError) {
      const code: EvidenceCode = e.code;
      console.log(code);
    }
    throw e;
  }
}
export const store = (): EvidenceStore => new EvidenceStore([], { lang: "zh" });
/** A bundle fetched as bytes (`Response.arrayBuffer()`), checked without decoding it to a string. */
export const fromBytes = async (response: Response): Promise<BundleResult> => checkBundle(new Uint8Array(await response.arrayBuffer()), { render: false });
